import Domain
import Foundation
import Hummingbird

extension ProfilesController {
    struct ImportedView {
        struct LeftOut {
            let payloadType: String
            let name: String
            let reason: String
        }

        let profilePath: String
        let name: String
        let identifier: String
        let signature: String
        /// The kinds that came across, "Single App Mode, ASAM allowlist"; "None" when nothing did.
        let imported: String
        let leftOut: [LeftOut]
        let hasLeftOut: Bool
    }

    /// `POST /profiles/import`: a new profile from a `.mobileconfig`, then a page saying what
    /// came across and what did not; a refused file comes back on the profiles page with why.
    @Sendable func importProfile(request: Request, context: SignedInContext) async throws -> Response {
        let file = context.files["profile"] ?? UploadedFile(filename: "", bytes: [])
        switch try await services.profileImporter.importProfile(file, by: Actor(context.user)) {
        case .failure(let problem):
            return try await index(form: NewForm(), importError: "Nothing was imported. \(problem.description)",
                                   request: request, context: context, status: .unprocessableContent)
        case .success(let outcome):
            let leftOut = outcome.imported.leftOut.map { ImportedView.LeftOut(payloadType: $0.payloadType, name: $0.name, reason: $0.reason) }
            let view = ImportedView(profilePath: Paths.profile(outcome.profile.id!), name: outcome.profile.name, identifier: outcome.profile.identifier,
                                    signature: outcome.signature,
                                    imported: outcome.imported.payloads.isEmpty ? "None" : outcome.imported.payloads.map(\.kind.displayName).joined(separator: ", "),
                                    leftOut: leftOut, hasLeftOut: !leftOut.isEmpty)
            return try services.renderer.page("profiles/imported", title: "Imported \(outcome.profile.name)", model: view,
                                              request: request, context: context, status: .created)
        }
    }
}
