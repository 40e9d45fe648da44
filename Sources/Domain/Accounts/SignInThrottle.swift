/// How long someone must wait before trying to sign in again with an email address.
///
/// The first few mistakes cost nothing, because people mistype. From the fifth failure on the
/// wait starts at 30 seconds and doubles with each further failure, up to 15 minutes: slow
/// enough to make guessing hopeless, short enough that a locked-out colleague is not stuck
/// for the day. The count is kept per email, whether or not an account exists.
public struct SignInThrottle: Sendable {
    public var freeAttempts = 4
    public var firstDelay: Double = 30
    public var longestDelay: Double = 15 * 60

    public init() {}

    /// Seconds to wait after `failures` failed attempts (0 when no wait is needed).
    public func delay(afterFailures failures: Int) -> Double {
        guard failures > freeAttempts else { return 0 }
        let doublings = min(failures - freeAttempts - 1, 30)
        return min(firstDelay * Double(1 << doublings), longestDelay)
    }

    /// Seconds still to wait, given when the last failure happened.
    public func remainingWait(failures: Int, secondsSinceLastFailure: Double) -> Double {
        max(0, delay(afterFailures: failures) - secondsSinceLastFailure)
    }
}
