import Domain

/// A few readable lines per payload for the profile page: its kind's `summaryLines`.
enum PayloadSummary {
    static func lines(_ payload: Payload) -> [String] {
        PayloadPresentations.of(payload)?.summaryLines ?? []
    }
}
