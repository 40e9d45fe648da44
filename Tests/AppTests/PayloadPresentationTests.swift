@testable import App
import Domain
import Testing

/// Every registered payload kind says how pages show it, beside its form: a kind registered in
/// `PayloadRegistry` without a `PayloadPresentation` would have no form, no summary and no
/// history, so this fails instead.
@Suite struct PayloadPresentationTests {
    @Test func everyRegisteredKindHasAPresentationAndAForm() {
        #expect(PayloadPresentations.missing.isEmpty)
        for kind in PayloadKind.allCases {
            #expect(PayloadFormsController.formType(for: kind) != nil, "\(kind.rawValue) has no form")
        }
    }

    @Test func aPayloadIsSummarisedAndListedInItsKindsWords() {
        let analytics = Payload(Analytics(enabled: false))
        #expect(PayloadSummary.lines(analytics) == ["Disabled"])
        #expect(PayloadFields.fields(analytics) == [PayloadFields.Field(label: "Send the analytics events apps record", value: "No")])
        let tunnel = Payload(AppTunnel(mode: .everything, directAddresses: []))
        #expect(PayloadSummary.lines(tunnel) == ["Every address through the tunnel"])
    }
}
