import Domain
import Testing

/// Counts read as a person writes them: the noun agrees with the number, and large numbers are
/// grouped the same way on every server.
@Suite struct CountedTests {
    @Test(arguments: [
        (0, "device", nil, "0 devices"), (1, "device", nil, "1 device"), (2, "device", nil, "2 devices"),
        (10_000, "device", nil, "10,000 devices"), (1, "key", nil, "1 key"), (1_234_567, "log line", nil, "1,234,567 log lines"),
        (3, "copy", "copies", "3 copies"), (1, "copy", "copies", "1 copy"),
    ] as [(Int, String, String?, String)])
    func aCountAndItsNounAgree(count: Int, singular: String, plural: String?, expected: String) {
        #expect(Counted.phrase(count, singular, plural: plural) == expected)
    }

    @Test func digitsAreGroupedInThrees() {
        #expect(Counted.grouped(999) == "999")
        #expect(Counted.grouped(1_000) == "1,000")
        #expect(Counted.grouped(100_000) == "100,000")
        #expect(Counted.grouped(-12_345) == "-12,345")
    }
}
