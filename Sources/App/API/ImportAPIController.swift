import Domain
import Foundation
import Hummingbird
import Storage

/// Files into the console through the API, by the same services as the pages and for the same
/// role (admin): a `.mobileconfig` as a profile or a profile's next version, and an app's
/// AppConfig specfile. The body is the file itself, as `curl --data-binary @file` sends it,
/// read up to `RequestLimits.importedFile` (413 beyond it) before anything is parsed; the
/// importers check the same 1 MB again for the pages' uploads.
struct ImportAPIController {
    let profileImporter: ProfileImporter
    let appConfigSpecs: AppConfigSpecStore

    /// Without a query the file becomes a new profile unless a profile matches it (its
    /// identifier, or an earlier import of it): then 409 `profile_exists` lists the matches,
    /// and the client asks again with `newProfile=true` or `versionOf=<id>`.
    static let importProfile = APIEndpoint<FileBody<MobileConfigUpload>, ProfileImportAnswer>(
        .post, "/api/v1/imports/mobileconfig", role: .admin,
        "Import a .mobileconfig (signed or not, XML, at most 1 MB): a new profile, or with versionOf the next version of a profile. "
            + "Without newProfile or versionOf, a file whose identifier a profile has (or an earlier import of it) answers 409 profile_exists with the matches.",
        parameters: ["newProfile", "versionOf"], success: .created,
        otherAnswers: [404: "profile_not_found (versionOf names no profile)", 413: "payload_too_large: the file is over 1 MB",
                       422: "empty_file, not_a_profile (not a property list or signed profile, or not a configuration profile), binary_plist, invalid_signature; field body"])
    /// The app's specfile, replacing the one before; its keys build the managed app
    /// configuration form.
    static let importSpecfile = Endpoint<RecordID<AppRecord>, FileBody<SpecfileUpload>, ImportedSpecfile>(
        .put, "/api/v1/apps/{id}/specfile", role: .admin,
        "Import an app's AppConfig specfile (XML, UTF-8, at most 1 MB), replacing the one before: its keys build the managed app configuration form",
        otherAnswers: [413: "payload_too_large: the file is over 1 MB",
                       422: "empty_file, not_text, wrong_app (the file describes another bundle ID), or invalid_file (the message names the line); field body"])

    func register(on routes: SecuredRoutes) {
        routes.handle(Self.importProfile, importProfile)
        routes.handle(Self.importSpecfile, importSpecfile)
    }

    @Sendable func importProfile(body: FileBody<MobileConfigUpload>, request: Request, context: SignedInContext) async throws -> Reply<ProfileImportAnswer> {
        try APIQuery.refuseUnknown(of: request, allowed: ["newProfile", "versionOf"])
        let newProfile = try APIQuery.bool("newProfile", of: request) ?? false
        let versionOf: RecordID<ProfileRecord>? = try APIQuery.id("versionOf", of: request)
        if newProfile, versionOf != nil {
            throw APIError(status: .badRequest, code: .invalidQuery, message: "Ask for a new profile or a new version, not both.", field: "versionOf")
        }
        let destination: ProfileImporter.Destination = if let versionOf { .newVersion(of: versionOf) } else if newProfile { .newProfile } else { .ask }
        switch try await profileImporter.importProfile(UploadedFile(filename: "", bytes: body.bytes), into: destination, by: Actor(context.user)) {
        case .failure(let problem):
            throw Self.refusal(problem)
        case .success(.matches(let matches)):
            return Reply(.matches(ImportMatches(matches)))
        case .success(.imported(let outcome)):
            let profile = ImportedProfile(outcome)
            return Reply(outcome.version == 1 ? .newProfile(profile) : .newVersion(profile),
                         headers: [.location: ProfilesAPIController.show.link(outcome.profile.id), .eTag: "\"\(outcome.version)\""])
        }
    }

    @Sendable func importSpecfile(_ id: RecordID<AppRecord>, body: FileBody<SpecfileUpload>, request: Request,
                                  context: SignedInContext) async throws -> Reply<ImportedSpecfile> {
        try APIQuery.refuseUnknown(of: request, allowed: [])
        switch try await appConfigSpecs.importSpec(UploadedFile(filename: "api", bytes: body.bytes), for: id, by: Actor(context.user)) {
        case .failure(let problem): throw Self.refusal(problem)
        case .success(let spec): return Reply(ImportedSpecfile(spec))
        }
    }

    /// An import's refusal as the API answers it: its code, and the line when the file has lines.
    static func refusal(_ problem: ImportProblem) -> APIError {
        let (status, code): (HTTPResponse.Status, APIErrorCode) = switch problem.code {
        case .invalidFile: (.unprocessableContent, .invalidFile)
        case .notAProfile: (.unprocessableContent, .notAProfile)
        case .emptyFile: (.unprocessableContent, .emptyFile)
        case .fileTooLarge: (.contentTooLarge, .fileTooLarge)
        case .notText: (.unprocessableContent, .notText)
        case .wrongApp: (.unprocessableContent, .wrongApp)
        case .binaryPlist: (.unprocessableContent, .binaryPlist)
        case .invalidSignature: (.unprocessableContent, .invalidSignature)
        case .profileNotFound: (.notFound, .profileNotFound)
        }
        return APIError(status: status, code: code, message: problem.description, field: "body")
    }
}

/// A `.mobileconfig` sent as the body, signed (CMS DER) or not.
enum MobileConfigUpload: UploadedFormat {
    static let mediaTypes = ["application/x-apple-aspen-config", "application/octet-stream"]
    static let summary = "The .mobileconfig file's bytes"
    static var maximumBytes: Int { RequestLimits.importedFile }
}

/// An AppConfig specfile sent as the body.
enum SpecfileUpload: UploadedFormat {
    static let mediaTypes = ["application/xml", "text/xml"]
    static let summary = "The specfile's text"
    static var maximumBytes: Int { RequestLimits.importedFile }
}
