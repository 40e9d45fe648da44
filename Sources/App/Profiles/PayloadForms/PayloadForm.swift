import Domain

/// A payload's edit form: built from the stored payload for display, or from what the admin
/// submitted (to re-render it with messages), and turning a submission into a payload.
protocol PayloadForm {
    var errors: [String: String] { get set }
    init(_ payload: Payload?)
    init(_ form: FormFields)
    static func submitted(_ form: FormFields) -> Submission
    /// Reads the form's file inputs into its fields before `submitted` sees them, so a refused
    /// save re-renders with what was uploaded; the messages are about the file inputs.
    static func takeUploads(_ files: [String: UploadedFile], into form: inout FormFields) -> ValidationErrors
}

extension PayloadForm {
    /// Most forms have no file input.
    static func takeUploads(_ files: [String: UploadedFile], into form: inout FormFields) -> ValidationErrors { ValidationErrors() }
}

/// What a submitted payload form amounts to.
struct Submission {
    /// nil when the form could not even be read into a payload (a number that isn't one).
    var payload: Payload?
    var errors: ValidationErrors
    /// A form button that changes the form rather than saving it ("add an area").
    var isRevision = false

    var isValid: Bool { payload != nil && errors.isEmpty && !isRevision }
}
