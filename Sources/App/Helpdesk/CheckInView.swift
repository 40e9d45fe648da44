import Domain
import Foundation

/// When a device last checked in and when it should next, in words: what the device page says
/// beside its last check-in and under "Request logs", so a command that stays Queued has an
/// answer to "when will it reply?" (`CheckInExpectation`).
struct CheckInView: Equatable {
    /// "12 minutes ago", or "never".
    let last: String
    let lastISO: String?
    /// When the next check-in is expected, or why there is no time to give.
    let next: String
    /// The device is past its expected check-in.
    let isOverdue: Bool
    /// A simulated device answers while its simulator is open: the page links to it.
    let answersInSimulator: Bool

    init(_ expectation: CheckInExpectation, lastCheckIn: Date?, intervalMinutes: Int, now: Date) {
        last = lastCheckIn.map { DisplayTime.relative($0, now: now) } ?? "never"
        lastISO = lastCheckIn.map(DisplayTime.iso)
        let every = Self.span(minutes: intervalMinutes)
        switch expectation {
        case .whenSimulatorOpens:
            next = "It checks in through its simulator while the simulator is open, and answers what is queued for it then."
            (isOverdue, answersInSimulator) = (false, true)
        case .never:
            next = "It has never checked in: it answers what is queued once it enrolls and checks in."
            (isOverdue, answersInSimulator) = (false, false)
        case .due(_, let by):
            let minutes = max(1, Int((by.timeIntervalSince(now) / 60).rounded(.up)))
            next = "Next check-in expected within \(Self.span(minutes: minutes)) (devices check in every \(every)); it answers what is queued then."
            (isOverdue, answersInSimulator) = (false, false)
        case .overdue(_, let since):
            next = "Overdue: a check-in was expected \(DisplayTime.relative(since, now: now)) (devices check in every \(every)). "
                + "It may be switched off, offline or no longer enrolled; what is queued waits until it checks in."
            (isOverdue, answersInSimulator) = (true, false)
        }
    }

    static func span(minutes: Int) -> String {
        if minutes < 60 { return minutes == 1 ? "1 minute" : "\(minutes) minutes" }
        let hours = minutes / 60, rest = minutes % 60
        let hourText = hours == 1 ? "1 hour" : "\(hours) hours"
        return rest == 0 ? hourText : "\(hourText) \(rest) min"
    }
}
