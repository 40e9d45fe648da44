import Domain
import Testing

@Suite struct ProfileContentTests {
    let lock = Payload(SingleAppMode(appIdentifier: "com.example.kiosk"))
    let logging = Payload(Logging(enabled: true, level: .warning, wifiOnly: false))

    @Test func settingAPayloadReplacesTheOneOfTheSameKindAndKeepsKindOrder() {
        let content = ProfileContent(name: "Kiosk").setting(logging).setting(lock)
        #expect(content.payloads.map(\.kind) == [.singleAppMode, .logging])
        let replaced = content.setting(Payload(SingleAppMode(appIdentifier: "com.example.other")))
        #expect(replaced.payloads.count == 2)
        guard let updated = replaced.settings(SingleAppMode.self) else {
            Issue.record("Single App Mode is missing")
            return
        }
        #expect(updated.appIdentifier == "com.example.other")
        #expect(replaced.removing(.logging).payloads.map(\.kind) == [.singleAppMode])
    }

    @Test func theDiffNamesEachChangedFieldWithBothValues() {
        let old = ProfileContent(name: "Kiosk").setting(lock)
        var changedLock = SingleAppMode(appIdentifier: "com.example.kiosk")
        changedLock.options.disableTouch = true
        let new = ProfileContent(name: "Kiosk v2").setting(Payload(changedLock)).setting(logging)
        let changes = ProfileDiff.changes(from: old, to: new)
        #expect(changes.first == ProfileChange(field: "Name", before: "Kiosk", after: "Kiosk v2"))
        #expect(changes.contains { $0.field.hasPrefix("Single App Mode") && $0.field.hasSuffix("disableTouch") && $0.before == "No" && $0.after == "Yes" })
        #expect(changes.contains { $0.field.hasPrefix("Logging") && $0.before == nil })
        #expect(!changes.contains { $0.field.hasSuffix("appIdentifier") })
    }

    @Test func identicalVersionsHaveNoChanges() {
        let content = ProfileContent(name: "Kiosk", descriptionMarkdown: "x").setting(lock)
        #expect(ProfileDiff.changes(from: content, to: content).isEmpty)
    }

    @Test func suggestedIdentifiersAreReverseDNSSlugs() {
        #expect(ProfileRules.suggestedIdentifier(prefix: "com.example", name: "Lobby kiosk — lockdown!") == "com.example.lobby-kiosk-lockdown")
        #expect(ProfileRules.suggestedIdentifier(prefix: "com.example", name: "???") == "com.example.profile")
        #expect(ProfileRules.identifierProblem("com.example.lobby-kiosk") == nil)
        #expect(ProfileRules.identifierProblem("lobby kiosk") != nil)
    }
}
