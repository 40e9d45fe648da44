import Domain
import Foundation
import Hummingbird
import Storage

/// One page per payload kind to add or edit it in a profile, and removing it. Saving makes a
/// new profile version; an invalid form comes back with the values and a message per field.
struct PayloadFormsController {
    let appConfigSpecs: AppConfigSpecStore
    let profiles: ProfileReader
    let images: ImageStore
    let catalogReader: CatalogReader
    let help: HelpLibrary
    let renderer: PageRenderer
    let saving: ProfileSaving

    struct CatalogOption {
        let bundleID: String
        let name: String
    }

    struct PageView {
        let profilePath: String
        /// Where the form posts.
        let formPath: String
        let profileName: String
        let kindName: String
        let kindSummary: String
        /// "Apple", "SDK" or "MDM" (`PayloadKind.channel`).
        let channel: String
        let baseVersion: Int
        let isNew: Bool
        /// The kind's help page, rendered from our own Markdown file, and where it is in full.
        let helpHTML: String
        let helpPath: String
        let catalog: [CatalogOption]
        let form: Any
        let hasErrors: Bool
    }

    func register(on routes: SecuredRoutes) {
        routes.on(Site.Profiles.payloadForm, use: edit)
        routes.on(Site.Profiles.savePayload, use: save)
        routes.on(Site.Profiles.removePayload, use: remove)
    }

    static func formType(for kind: PayloadKind) -> (any PayloadForm.Type)? {
        PayloadPresentations.of(kind)?.formType
    }

    /// The form of `kind`; a kind without a form here (an Apple payload edited elsewhere) has no page.
    private func formType(_ kind: PayloadKind) throws -> any PayloadForm.Type {
        guard let type = Self.formType(for: kind) else { throw HTTPError(.notFound) }
        return type
    }

    @Sendable func edit(_ id: RecordID<ProfileRecord>, _ kind: PayloadKind, request: Request, context: SignedInContext) async throws -> Response {
        let type = try formType(kind)
        let latest = try await profiles.latestVersion(of: id)
        let payload = latest.content.payload(of: kind)
        return try await page(id: id, kind: kind, base: latest.number, profileName: latest.content.name, isNew: payload == nil,
                        form: type.init(payload), request: request, context: context)
    }

    @Sendable func save(_ id: RecordID<ProfileRecord>, _ kind: PayloadKind, request: Request, context: SignedInContext) async throws -> Response {
        let actor = Actor(context.user)
        let type = try formType(kind)
        let base = Int(context.form["baseVersion"]) ?? 0
        var fields = context.form
        var submission: Submission
        var brandingImages: [String: ImageReference] = [:]
        if kind == .managedAppConfig, fields["intent"] == "specfile" {
            return try await specfileRevision(id: id, base: base, fields: fields, request: request, context: context)
        }
        if kind == .branding {
            (submission, brandingImages) = try await brandingSubmission(&fields, files: context.files, actor: actor)
        } else {
            let uploadErrors = type.takeUploads(context.files, into: &fields)
            submission = type.submitted(fields)
            submission.errors.merge(uploadErrors)
        }
        if let payload = submission.payload {
            submission.errors.merge(try await profiles.catalogProblems([payload])[0])
        }
        guard submission.isValid, let payload = submission.payload else {
            var form: any PayloadForm = kind == .branding ? BrandingForm(fields, images: brandingImages) : type.init(fields)
            form.errors = submission.errors.messages
            return try await formAgain(form, id: id, kind: kind, base: base, request: request, context: context,
                                       status: submission.isRevision ? .ok : .unprocessableContent)
        }
        return try await saving.save(
            profileID: id, base: base, request: request, context: context, actor: actor,
            noting: { "\($0.payload(of: kind) == nil ? "Added" : "Edited") \(kind.displayName)" }, confirming: fields) { $0.setting(payload) }
    }

    /// The form again as it was sent — refused, or changed by one of its own buttons — on the
    /// version it was based on (or the latest, when that one is gone).
    func formAgain(_ form: any PayloadForm, id: RecordID<ProfileRecord>, kind: PayloadKind, base: Int, request: Request,
                   context: SignedInContext, status: HTTPResponse.Status) async throws -> Response {
        let (baseVersion, latest) = try await profiles.editBase(base, of: id)
        return try await page(id: id, kind: kind, base: baseVersion?.number ?? latest.number, profileName: latest.content.name,
                              isNew: (baseVersion ?? latest).content.payload(of: kind) == nil, form: form, request: request, context: context,
                              status: status)
    }

    /// Stores uploaded logos (checked by content) and reads the branding form with them; a
    /// stored upload stays referenced by the re-rendered form, so a fix elsewhere needs no re-upload.
    private func brandingSubmission(_ fields: inout FormFields, files: [String: UploadedFile], actor: Actor) async throws
        -> (Submission, [String: ImageReference]) {
        let images = self.images
        var uploadErrors = ValidationErrors()
        for field in BrandingForm.logoFields {
            guard let file = files[field.name] else { continue }
            switch try await images.store(file, by: actor) {
            case .success(let reference): fields.set("\(field.name).current", reference.id)
            case .failure(let problem): uploadErrors[field.name] = problem.message
            }
        }
        let resolved = try await images.references(for: BrandingForm.logoFields.map { fields["\($0.name).current"] }.filter { !$0.isEmpty })
        var submission = BrandingForm.submitted(fields, images: resolved)
        submission.errors.merge(uploadErrors)
        return (submission, resolved)
    }

    @Sendable func remove(_ id: RecordID<ProfileRecord>, _ kind: PayloadKind, request: Request, context: SignedInContext) async throws -> Response {
        let actor = Actor(context.user)
        return try await saving.save(
            profileID: id, base: Int(context.form["baseVersion"]) ?? 0, request: request, context: context, actor: actor,
            noting: { _ in "Removed \(kind.displayName)" }, confirming: context.form) { $0.removing(kind) }
    }

    private func page(id: RecordID<ProfileRecord>, kind: PayloadKind, base: Int, profileName: String, isNew: Bool, form: any PayloadForm,
                      request: Request, context: SignedInContext, status: HTTPResponse.Status = .ok) async throws -> Response {
        let apps = try await catalogReader.apps()
        let view = PageView(
            profilePath: Site.Profiles.show.link(id), formPath: Site.Profiles.payloadForm.link(id, kind), profileName: profileName, kindName: kind.displayName, kindSummary: kind.summary, channel: kind.channel,
            baseVersion: base, isNew: isNew, helpHTML: help.page(for: kind)?.panelHTML ?? "",
            helpPath: Site.Help.page(HelpLibrary.topic(for: kind)),
            catalog: apps.map { CatalogOption(bundleID: $0.bundleID, name: $0.name) }, form: form, hasErrors: !form.errors.isEmpty)
        return try renderer.page("profiles/payloads/\(kind.rawValue)", title: "\(kind.displayName) · \(profileName)", model: view,
                                      request: request, context: context, status: status)
    }
}
