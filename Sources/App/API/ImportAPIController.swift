import Domain
import Foundation
import Hummingbird
import NIOCore
import Storage

/// Files into the console through the API, by the same services as the pages and for the same
/// role (admin): a `.mobileconfig` as a profile or a profile's next version, and an app's
/// AppConfig specfile. The body is the file itself, as `curl --data-binary @file` sends it,
/// read up to `RequestLimits.importedFile` (413 beyond it) before anything is parsed; the
/// importers check the same 1 MB again for the pages' uploads.
struct ImportAPIController {
    let services: Services

    func register(on routes: SecuredRoutes) {
        routes.post("/api/v1/imports/mobileconfig", role: .admin, use: importProfile)
        routes.put("/api/v1/apps/{id}/specfile", role: .admin, use: importSpecfile)
    }

    /// Without a query the file becomes a new profile unless a profile matches it (its
    /// identifier, or an earlier import of it): then 409 `profile_exists` lists the matches,
    /// and the client asks again with `newProfile=true` or `versionOf=<id>`.
    @Sendable func importProfile(request: Request, context: SignedInContext) async throws -> Response {
        try APIQuery.refuseUnknown(of: request, allowed: ["newProfile", "versionOf"])
        let newProfile = try APIQuery.bool("newProfile", of: request) ?? false
        let versionOf: RecordID<ProfileRecord>? = try APIQuery.id("versionOf", of: request)
        if newProfile, versionOf != nil {
            throw APIError(status: .badRequest, code: .invalidQuery, message: "Ask for a new profile or a new version, not both.", field: "versionOf")
        }
        let destination: ProfileImporter.Destination = if let versionOf { .newVersion(of: versionOf) } else if newProfile { .newProfile } else { .ask }
        let bytes = try await Self.body(of: request, upTo: RequestLimits.importedFile)
        switch try await services.profileImporter.importProfile(UploadedFile(filename: "", bytes: bytes), into: destination, by: Actor(context.user)) {
        case .failure(let problem):
            throw Self.refusal(problem)
        case .success(.matches(let matches)):
            let error: [String: Any] = ["code": APIErrorCode.profileExists.rawValue, "field": NSNull(),
                                        "message": "A profile has this file's identifier already. Ask again with newProfile=true, or with versionOf=<id> to make it that profile's next version."]
            return try .jsonObject(["error": error, "newIdentifier": matches.newIdentifier, "matches": matches.profiles.map { profile in
                ["id": profile.id.rawValue, "identifier": profile.identifier, "name": profile.name, "version": profile.version] as [String: Any]
            }], status: .conflict)
        case .success(.imported(let outcome)):
            let body: [String: Any] = [
                "id": outcome.profile.id.rawValue, "identifier": outcome.profile.identifier, "name": outcome.profile.name,
                "version": outcome.version, "signature": outcome.signature,
                "imported": outcome.imported.payloads.map(\.kind.rawValue),
                "leftOut": outcome.imported.leftOut.map { ["payloadType": $0.payloadType, "name": $0.name, "reason": $0.reason] },
            ]
            return try .jsonObject(body, status: outcome.version == 1 ? .created : .ok,
                                   headers: [.location: "/api/v1/profiles/\(outcome.profile.id)", .eTag: "\"\(outcome.version)\""])
        }
    }

    /// The app's specfile, replacing the one before; its keys build the managed app
    /// configuration form.
    @Sendable func importSpecfile(request: Request, context: SignedInContext) async throws -> Response {
        try APIQuery.refuseUnknown(of: request, allowed: [])
        let id = try context.parameters.require("id", as: RecordID<AppRecord>.self)
        let bytes = try await Self.body(of: request, upTo: RequestLimits.importedFile)
        switch try await services.appConfigSpecs.importSpec(UploadedFile(filename: "api", bytes: bytes), for: id, by: Actor(context.user)) {
        case .failure(let problem):
            throw Self.refusal(problem)
        case .success(let spec):
            return try .jsonObject([
                "bundleID": spec.bundleID, "version": spec.version,
                "keys": spec.keys.map { ["name": $0.name, "type": $0.type.rawValue] },
                "skipped": spec.skipped.map { ["key": $0.keyName, "line": $0.line, "reason": $0.reason] as [String: Any] },
            ])
        }
    }

    private static func body(of request: Request, upTo limit: Int) async throws -> [UInt8] {
        var request = request
        return Array(try await request.collectBody(upTo: limit).readableBytesView)
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
