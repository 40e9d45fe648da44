import Foundation

/// When a device is expected to check in next — and so to answer what is queued for it. A
/// device polls the console; the console expects a check-in at least every `interval` (a
/// setting), so a device silent for longer is overdue. A device answered by its simulator —
/// one the simulator runs, or one without a check-in token, which only the simulator can
/// answer for — checks in while its simulator is open, whatever the interval.
public enum CheckInExpectation: Equatable, Sendable {
    /// It answers when its simulator is open.
    case whenSimulatorOpens
    /// It has never checked in: it answers once it enrolls and first checks in.
    case never
    /// It checked in at `last`; the next check-in is due by `due`.
    case due(last: Date, by: Date)
    /// It checked in at `last` and was due by `due`, which has passed.
    case overdue(last: Date, since: Date)

    public static func of(lastCheckIn: Date?, answeredBySimulator: Bool, interval: TimeInterval, now: Date) -> CheckInExpectation {
        if answeredBySimulator { return .whenSimulatorOpens }
        guard let last = lastCheckIn else { return .never }
        let due = last.addingTimeInterval(interval)
        return due >= now ? .due(last: last, by: due) : .overdue(last: last, since: due)
    }
}
