import Foundation

extension Duration {
    /// In seconds, for dates and rates.
    package var seconds: TimeInterval {
        let (whole, attoseconds) = components
        return TimeInterval(whole) + TimeInterval(attoseconds) / 1e18
    }
}
