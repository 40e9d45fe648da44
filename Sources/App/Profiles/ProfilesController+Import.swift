import Domain
import Foundation
import Hummingbird
import Storage

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
        /// "It is version 1 of a new profile…" or "It is version 4 of …".
        let placement: String
    }

    /// The question a file that matches existing profiles asks: a new version of which, or a
    /// new profile. The file rides along as base64, so the choice needs no second upload.
    struct ImportChoiceView {
        struct Match {
            let value: String
            let label: String
            let checked: Bool
        }

        let fileName: String
        let fileData: String
        let fileIdentifier: String
        let matches: [Match]
        let newIdentifier: String
        let formPath: String
    }

    /// `POST /profiles/import`: the file (uploaded, or carried from the choice page) and where
    /// it goes (`destination`: left out asks, `new-profile`, or `version-<id>`); then a page
    /// saying what came across and what did not, or the choice when profiles match. A refused
    /// file comes back on the profiles page with why.
    @Sendable func importProfile(request: Request, context: SignedInContext) async throws -> Response {
        let file: UploadedFile
        let carried = context.form["fileData"]
        if !carried.isEmpty {
            guard let bytes = Data(base64Encoded: carried) else {
                return try await refuse(ImportProblem(line: nil, "The file did not come back whole; upload it again."), request: request, context: context)
            }
            file = UploadedFile(filename: context.form["fileName"], bytes: Array(bytes))
        } else {
            file = context.files["profile"] ?? UploadedFile(filename: "", bytes: [])
        }
        guard let destination = Self.importDestination(context.form["destination"]) else {
            return try await refuse(ImportProblem(line: nil, "Choose a new profile or a new version of a matching one."), request: request, context: context)
        }
        switch try await profileImporter.importProfile(file, into: destination, by: Actor(context.user)) {
        case .failure(let problem):
            return try await refuse(problem, request: request, context: context)
        case .success(.matches(let matches)):
            let view = ImportChoiceView(
                fileName: file.displayName, fileData: Data(file.bytes).base64EncodedString(),
                fileIdentifier: matches.imported.identifier.isEmpty ? matches.newIdentifier : matches.imported.identifier,
                matches: matches.profiles.enumerated().map { index, profile in
                    ImportChoiceView.Match(value: "version-\(profile.id)", label: "A new version of \(profile.name) (\(profile.identifier)), now version \(profile.version)",
                                           checked: index == 0)
                },
                newIdentifier: matches.newIdentifier, formPath: Site.Profiles.importFile.link())
            return try renderer.page("profiles/import-choice", title: "Import \(matches.imported.name)", model: view,
                                              request: request, context: context, status: .ok)
        case .success(.imported(let outcome)):
            let leftOut = outcome.imported.leftOut.map { ImportedView.LeftOut(payloadType: $0.payloadType, name: $0.name, reason: $0.reason) }
            let view = ImportedView(profilePath: Site.Profiles.show.link(outcome.profile.id), name: outcome.profile.name, identifier: outcome.profile.identifier,
                                    signature: outcome.signature,
                                    imported: outcome.imported.payloads.isEmpty ? "None" : outcome.imported.payloads.map(\.kind.displayName).joined(separator: ", "),
                                    leftOut: leftOut, hasLeftOut: !leftOut.isEmpty,
                                    placement: outcome.version == 1
                                        ? "It is version 1 of a new profile, assigned to no group: no device gets it until you assign it."
                                        : "It is version \(outcome.version) of this profile: the groups it is assigned to get it at their next check-in.")
            return try renderer.page("profiles/imported", title: "Imported \(outcome.profile.name)", model: view,
                                              request: request, context: context, status: .created)
        }
    }

    /// `destination` as the page and the API send it; nil for anything else.
    static func importDestination(_ text: String) -> ProfileImporter.Destination? {
        switch text {
        case "", "ask": return .ask
        case "new-profile": return .newProfile
        default:
            guard text.hasPrefix("version-"), let id = RecordID<ProfileRecord>(String(text.dropFirst("version-".count))) else { return nil }
            return .newVersion(of: id)
        }
    }

    private func refuse(_ problem: ImportProblem, request: Request, context: SignedInContext) async throws -> Response {
        try await index(form: NewForm(), importError: "Nothing was imported. \(problem.description)",
                        request: request, context: context, status: .unprocessableContent)
    }
}
