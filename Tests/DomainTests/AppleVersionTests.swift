import Domain
import Testing

/// Versions as compliance rules will compare them: part by part, as numbers, a missing part zero.
@Suite struct AppleVersionTests {
    func version(_ text: String) throws -> AppleVersion { try #require(AppleVersion(text), "\(text) reads as a version") }

    @Test func partsCompareAsNumbersNotText() throws {
        #expect(try version("17.10") > version("17.9"))
        #expect(try version("17.9.1") < version("17.10"))
        #expect(try version("2.10.0") > version("2.9.99"))
    }

    @Test func missingPartsAreZero() throws {
        #expect(try version("18") == version("18.0"))
        #expect(try version("18.0.0") == version("18"))
        #expect(try version("18.0.1") > version("18"))
        #expect(Set([try version("18"), try version("18.0")]).count == 1, "equal versions hash alike")
        #expect(try version("18.0").description == "18.0", "shown as given")
    }

    @Test func textThatIsNotAVersionIsRefused() {
        for text in ["", "17.", ".17", "17..1", "17.a", "v17", "17 .1", "1.2.3.4.5", "-1", "1234567890", "17,4", "١٧"] {
            #expect(AppleVersion(text) == nil, "\(text) is refused")
        }
        #expect(AppleVersion(" 17.4 ") != nil, "surrounding spaces are trimmed")
    }

    @Test func comparisonsHoldAsTheirNamesSay() throws {
        let (old, new) = (try version("17.9"), try version("17.10"))
        #expect(VersionComparison.lessThan.holds(old, new) && !VersionComparison.lessThan.holds(new, new))
        #expect(VersionComparison.lessThanOrEqual.holds(new, new))
        #expect(VersionComparison.equal.holds(try version("18"), try version("18.0")))
        #expect(VersionComparison.notEqual.holds(old, new))
        #expect(VersionComparison.greaterThanOrEqual.holds(new, old) && VersionComparison.greaterThan.holds(new, old))
        #expect(!VersionComparison.greaterThan.holds(try version("18.0"), try version("18")))
    }
}
