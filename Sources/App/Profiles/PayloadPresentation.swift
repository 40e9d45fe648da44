import Domain

/// What the console's pages make of one payload kind, declared beside its form (each
/// `PayloadForms/<Kind>Form.swift` ends with its kind's conformance): the lines the profile
/// page shows, each setting under the form's own label for the history and the impact
/// preview, and the form itself. Every registered kind conforms (`PayloadPresentationTests`).
protocol PayloadPresentation: PayloadSettings {
    /// The kind's edit form.
    static var formType: any PayloadForm.Type { get }
    /// A few readable lines for the profile page.
    var summaryLines: [String] { get }
    /// Each setting under the form's label, with the value as the form shows it (levels and
    /// types by name, Yes/No, a colour with its swatch, a logo with its picture): what the
    /// history compares, so a diff reads in the payload's words rather than its stored keys.
    var labelledFields: [PayloadFields.Field] { get }
}

enum PayloadPresentations {
    /// The presentation of a kind; nil only for a kind that was registered without one.
    static func of(_ kind: PayloadKind) -> (any PayloadPresentation.Type)? {
        kind.settingsType as? any PayloadPresentation.Type
    }

    static func of(_ payload: Payload) -> (any PayloadPresentation)? {
        payload.settings as? any PayloadPresentation
    }

    /// Registered kinds without a presentation: what `Console` refuses to start with.
    static var missing: [PayloadKind] { PayloadKind.allCases.filter { of($0) == nil } }
}
