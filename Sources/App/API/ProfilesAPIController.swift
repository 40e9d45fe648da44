import Domain
import Foundation
import Hummingbird
import NIOCore
import Storage

/// `/api/v1/profiles`: list, read, create and version profiles, assign them, download exports.
struct ProfilesAPIController {
    let services: Services
    var store: ProfileStore { services.profileStore }

    func register(on routes: SecuredRoutes) {
        routes.get("/api/v1/profiles", role: .viewer, use: list)
        routes.post("/api/v1/profiles", role: .admin, use: create)
        routes.get("/api/v1/profiles/{id}", role: .viewer, use: show)
        routes.put("/api/v1/profiles/{id}", role: .admin, use: update)
        routes.post("/api/v1/profiles/{id}/assignments", role: .admin, use: assign)
        routes.delete("/api/v1/profiles/{id}/assignments/{group}", role: .admin, use: unassign)
        routes.get("/api/v1/profiles/{id}/versions/{number}/mobileconfig", role: .viewer, use: mobileconfig)
        routes.get("/api/v1/profiles/{id}/versions/{number}/sdk-profile", role: .viewer, use: sdkProfile)
    }

    @Sendable func list(request: Request, context: SignedInContext) async throws -> Response {
        let profiles = try await services.profiles.all()
        return try .jsonObject(["profiles": profiles.map { profile in
            ["id": profile.id.rawValue, "identifier": profile.identifier, "name": profile.name, "version": profile.version,
             "updatedAt": DisplayTime.iso(profile.updatedAt)] as [String: Any]
        }])
    }

    @Sendable func show(request: Request, context: SignedInContext) async throws -> Response {
        let id = try context.parameters.require("id", as: RecordID<ProfileRecord>.self)
        return try await detail(id)
    }

    private func detail(_ id: RecordID<ProfileRecord>, status: HTTPResponse.Status = .ok) async throws -> Response {
        let (profile, version, groups) = try await services.profiles.detail(id)
        let payloads = try version.content.payloads.map { try JSONSerialization.jsonObject(with: PayloadJSON.encode($0)) }
        let body: [String: Any] = [
            "id": profile.id.rawValue, "identifier": profile.identifier, "name": version.content.name,
            "description": version.content.descriptionMarkdown, "version": version.number, "payloads": payloads,
            "groups": groups.map { ["id": $0.id.rawValue, "name": $0.name] as [String: Any] },
        ]
        return try .jsonObject(body, status: status, headers: [.eTag: "\"\(version.number)\""])
    }

    /// Name, description and payloads of a request body, validated like the forms.
    private func content(from body: ProfileBody) async throws -> ProfileContent {
        let description = body.description ?? ""
        try APIRequest.refuse(ProfileRules.validate(name: body.name, descriptionMarkdown: description))
        var content = ProfileContent(name: body.name.trimmingWhitespace(), descriptionMarkdown: description)
        var payloads: [Payload] = []
        for (index, sent) in (body.payloads ?? []).enumerated() {
            // Certificates are described by what they are, whatever the client said of them.
            let (payload, certificateProblems) = PinnedCertificates.settle(sent.payload)
            if content.payload(of: payload.kind) != nil {
                throw APIError(status: .unprocessableContent, code: .duplicatePayload,
                               message: "A profile holds at most one \(payload.kind.displayName) payload.", field: "payloads.\(index)")
            }
            try APIRequest.refuse(certificateProblems, under: "payloads.\(index).")
            try APIRequest.refuse(payload.validate(), under: "payloads.\(index).")
            content = content.setting(payload)
            payloads.append(payload)
        }
        let catalogProblems = try await services.profiles.catalogProblems(payloads)
        for (index, problems) in catalogProblems.enumerated() { try APIRequest.refuse(problems, under: "payloads.\(index).") }
        return content
    }

    @Sendable func create(request: Request, context: SignedInContext) async throws -> Response {
        let actor = Actor(context.user)
        let body = try await APIRequest.decode(ProfileBody.self, from: request)
        let content = try await content(from: body)
        let identifier = body.identifier ?? ProfileRules.suggestedIdentifier(prefix: ProfilesController.identifierPrefix, name: content.name)
        try APIRequest.refuse(ProfileRules.validate(name: content.name, descriptionMarkdown: content.descriptionMarkdown, identifier: identifier))
        do {
            let profile = try await store.create(identifier: identifier, content: ProfileContent(name: content.name, descriptionMarkdown: content.descriptionMarkdown), by: actor)
            if !content.payloads.isEmpty {
                try await store.saveVersion(of: profile.id, basedOn: 1, content: content, note: "Created with payloads through the API", by: actor)
            }
            return try await detail(profile.id, status: .created)
        } catch StorageError.uniqueViolation {
            throw APIError(status: .conflict, code: .identifierTaken, message: "Another profile uses the identifier \(identifier).", field: "identifier")
        }
    }

    @Sendable func update(request: Request, context: SignedInContext) async throws -> Response {
        let actor = Actor(context.user)
        let id = try context.parameters.require("id", as: RecordID<ProfileRecord>.self)
        guard let ifMatch = request.headers[.ifMatch] else {
            throw APIError(status: .preconditionRequired, code: .ifMatchRequired,
                           message: "Send If-Match with the version you edited, as the ETag of GET /api/v1/profiles/{id} gives it.")
        }
        guard let precondition = IfMatch(ifMatch) else {
            throw APIError(status: .badRequest, code: .malformedIfMatch, message: "If-Match must be a version such as \"3\", as the ETag gives it, or *.")
        }
        let body = try await APIRequest.decode(ProfileBody.self, from: request)
        if body.identifier != nil { throw APIRequest.invalid("identifier", "A profile's identifier never changes; leave identifier out when saving a version.") }
        let content = try await content(from: body)
        if try Self.isDryRun(request) {
            let (profile, _, _) = try await services.profiles.detail(id)
            if let base = precondition.baseVersion, base != profile.version { throw Self.versionConflict }
            return try Self.dryRun(try await services.profiles.impact(of: .save(id, content: content)))
        }
        do {
            try await store.saveVersion(of: id, basedOn: precondition.baseVersion, content: content, note: "Saved through the API", by: actor)
        } catch is ProfileStore.Conflict {
            throw Self.versionConflict
        } catch StorageError.versionConflict {
            throw Self.versionConflict
        }
        return try await detail(id)
    }

    /// Whether a change is asked as a dry run; any other query parameter is refused.
    static func isDryRun(_ request: Request) throws -> Bool {
        try APIQuery.refuseUnknown(of: request, allowed: ["dryRun"])
        return try APIQuery.bool("dryRun", of: request) == true
    }

    /// A dry run's answer: what the change would do, with nothing changed.
    static func dryRun(_ preview: ImpactPreview.Result) throws -> Response {
        try .jsonObject(["dryRun": true, "impact": ImpactJSON.object(preview.impact, appNames: preview.appNames)])
    }

    static let versionConflict = APIError(status: .preconditionFailed, code: .versionConflict,
                                          message: "The profile has a newer version than the one you edited. Read it again and reapply your change.")

    @Sendable func assign(request: Request, context: SignedInContext) async throws -> Response {
        let id = try context.parameters.require("id", as: RecordID<ProfileRecord>.self)
        let groupID = try await APIRequest.decode(AssignmentBody.self, from: request).groupID
        if try Self.isDryRun(request) { return try Self.dryRun(try await services.profiles.impact(of: .assign(id, to: groupID))) }
        _ = try await services.assignments.assign(id, to: groupID, by: Actor(context.user))
        return try await detail(id)
    }

    @Sendable func unassign(request: Request, context: SignedInContext) async throws -> Response {
        let id = try context.parameters.require("id", as: RecordID<ProfileRecord>.self)
        let groupID = try context.parameters.require("group", as: RecordID<DeviceGroupRecord>.self)
        if try Self.isDryRun(request) { return try Self.dryRun(try await services.profiles.impact(of: .unassign(id, from: groupID))) }
        _ = try await services.assignments.unassign(id, from: groupID, by: Actor(context.user))
        return try await detail(id)
    }

    private func exportInput(_ context: SignedInContext) async throws -> ProfileExportInput {
        let id = try context.parameters.require("id", as: RecordID<ProfileRecord>.self)
        let number = try context.parameters.require("number", as: Int.self)
        return try await services.profiles.export(id, version: number)
    }

    @Sendable func mobileconfig(request: Request, context: SignedInContext) async throws -> Response {
        let xml = await Array(MobileConfig.xml(for: try exportInput(context)).utf8)
        let bytes = try APIQuery.bool("signed", of: request) == true ? try await services.signing.sign(xml) : xml
        return Response(status: .ok, headers: [.contentType: "application/x-apple-aspen-config"],
                        body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    @Sendable func sdkProfile(request: Request, context: SignedInContext) async throws -> Response {
        await Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(bytes: SDKProfile.json(for: try exportInput(context)))))
    }
}
