import Domain
import Testing

/// Compliance as a device judges it: every rule applies, versions compare as Apple's, a wipe
/// beats a block, and what cannot be judged does not act.
@Suite struct ComplianceRulesTests {
    let oldNotes = ComplianceRule(subject: .app("com.example.clinicnotes"), comparison: .lessThan, version: "5.2", action: .block)
    let oldIOS = ComplianceRule(subject: .operatingSystem, comparison: .lessThan, version: "17.10", action: .wipe)

    @Test func aDeviceMeetingNoRuleIsCompliant() {
        let verdict = ComplianceVerdict.judge([oldNotes, oldIOS], osVersion: "18.0", appVersions: ["com.example.clinicnotes": "5.10"])
        #expect(verdict.isCompliant && verdict.action == nil)
    }

    @Test func anOldAppIsBlockedAndAnOldSystemWipes() {
        let blocked = ComplianceVerdict.judge([oldNotes, oldIOS], osVersion: "17.10", appVersions: ["com.example.clinicnotes": "5.1.9"])
        #expect(blocked.broken == [oldNotes] && blocked.action == .block)
        // 17.9 is earlier than 17.10 (not later, as text would have it): both rules, and the wipe wins.
        let wiped = ComplianceVerdict.judge([oldNotes, oldIOS], osVersion: "17.9", appVersions: ["com.example.clinicnotes": "5.1"])
        #expect(wiped.broken == [oldNotes, oldIOS] && wiped.action == .wipe)
    }

    @Test func whatCannotBeJudgedDoesNotAct() {
        let verdict = ComplianceVerdict.judge([oldNotes, ComplianceRule(subject: .operatingSystem, comparison: .lessThan, version: "not a version", action: .wipe)],
                                              osVersion: "beta", appVersions: [:])
        #expect(verdict.isCompliant, "an app the device lacks, an unreadable version: no rule is met")
    }

    @Test func rulesReadAsSentences() {
        #expect(oldNotes.describe { $0 == "com.example.clinicnotes" ? "Clinic Notes" : $0 } == "Clinic Notes earlier than 5.2")
        #expect(oldIOS.describe() == "iOS earlier than 17.10")
    }
}
