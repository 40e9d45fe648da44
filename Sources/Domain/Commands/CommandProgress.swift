import Foundation

/// How a command moves from queued to done: the transitions the queue allows, whoever drives
/// it — a simulated device, the device API or an MDM check-in.
///
/// A command is handed out (sent), then reported on; NotNow puts it back to be sent again on
/// a later check-in, counting how often and since when. A person can cancel a waiting
/// command; one nobody ran within its lifetime expires. A finished command never changes
/// again, so a report that comes twice, or for a command that was not sent, changes nothing.
public struct CommandProgress: Equatable, Sendable {
    public private(set) var status: CommandStatus
    public private(set) var sentAt: Date?
    public private(set) var notNowCount: Int
    public private(set) var firstNotNowAt: Date?
    public private(set) var completedAt: Date?

    public enum Refusal: Error, Equatable, Sendable {
        /// The command is finished (its status says how).
        case finished(CommandStatus)
        /// A report names a command the device was not sent.
        case notSent
        /// The status is not one a device reports.
        case notAReport(CommandStatus)
    }

    public init(status: CommandStatus = .queued, sentAt: Date? = nil, notNowCount: Int = 0, firstNotNowAt: Date? = nil, completedAt: Date? = nil) {
        self.status = status
        self.sentAt = sentAt
        self.notNowCount = notNowCount
        self.firstNotNowAt = firstNotNowAt
        self.completedAt = completedAt
    }

    /// How long a command sent to an MDM client is taken to be on its way: a second check-in
    /// of the device within this time (a retry racing the first, on another instance) is not
    /// given it again; after it, the answer is taken as lost and the command is sent again.
    public static let inFlight: TimeInterval = 60

    /// Sent less than `inFlight` ago, and not reported on yet.
    public func isInFlight(at time: Date) -> Bool {
        status == .sent && sentAt.map { time.timeIntervalSince($0) < Self.inFlight } == true
    }

    /// The device is given the command (again, after NotNow or an unanswered send).
    public mutating func handOut(at time: Date) throws(Refusal) {
        guard status.isWaiting else { throw .finished(status) }
        status = .sent
        sentAt = time
    }

    /// The device's report on a command it was sent.
    public mutating func report(_ reported: CommandStatus, at time: Date) throws(Refusal) {
        guard CommandStatus.reports.contains(reported) else { throw .notAReport(reported) }
        guard status.isWaiting else { throw .finished(status) }
        guard status == .sent else { throw .notSent }
        status = reported
        if reported == .notNow {
            notNowCount += 1
            firstNotNowAt = firstNotNowAt ?? time
        } else {
            completedAt = time
        }
    }

    /// A person takes a waiting command back. One already sent may still run on the device.
    public mutating func cancel(at time: Date) throws(Refusal) {
        guard status.isWaiting else { throw .finished(status) }
        status = .cancelled
        completedAt = time
    }

    /// Ends a waiting command queued at `queuedAt` once its lifetime has passed; true when it did.
    public mutating func expireIfDue(queuedAt: Date, at time: Date) -> Bool {
        guard status.isWaiting, time.timeIntervalSince(queuedAt) > DeviceCommand.lifetime else { return false }
        status = .expired
        completedAt = time
        return true
    }
}
