import Domain
import Foundation
import Hummingbird
import Storage

/// `/api/v1/profiles`: list, read, create and version profiles, assign them, download exports.
struct ProfilesAPIController {
    let profileStore: ProfileStore
    let profiles: ProfileReader
    let assignments: AssignmentService
    let signing: SigningService
    var store: ProfileStore { profileStore }

    static let list = APIEndpoint<NoBody, ProfileList>(.get, "/api/v1/profiles", role: .viewer, "List profiles")
    static let create = APIEndpoint<ProfileBody, ProfileAnswer>(.post, "/api/v1/profiles", role: .admin, "Create a profile", success: .created,
                                                                otherAnswers: [409: "identifier_taken", 422: "validation_failed or duplicate_payload, with field"])
    static let show = Endpoint<RecordID<ProfileRecord>, NoBody, ProfileAnswer>(.get, "/api/v1/profiles/{id}", role: .viewer,
                                                         "Read a profile's latest version (ETag: its version)")
    static let update = Endpoint<RecordID<ProfileRecord>, ProfileBody, ProfileChangeAnswer>(
        .put, "/api/v1/profiles/{id}", role: .admin, "Save a new version (with dryRun=true: what it would do to devices, saving nothing)",
        parameters: ["If-Match", "dryRun"], otherAnswers: [412: "version_conflict: a newer version exists", 428: "if_match_required", 422: "validation_failed"])
    static let assign = Endpoint<RecordID<ProfileRecord>, AssignmentBody, ProfileChangeAnswer>(
        .post, "/api/v1/profiles/{id}/assignments", role: .admin,
        "Assign to a group (with dryRun=true: what it would do to devices, changing nothing)", parameters: ["dryRun"])
    static let unassign = Endpoint<PathPair<RecordID<ProfileRecord>, RecordID<DeviceGroupRecord>>, NoBody, ProfileChangeAnswer>(
        .delete, "/api/v1/profiles/{id}/assignments/{group}", role: .admin,
        "Unassign from a group (with dryRun=true: what it would do to devices, changing nothing)", parameters: ["dryRun"])
    static let mobileconfig = Endpoint<PathPair<RecordID<ProfileRecord>, Int>, NoBody, FileAnswer<MobileConfigFile>>(
        .get, "/api/v1/profiles/{id}/versions/{number}/mobileconfig", role: .viewer, "Download a version as .mobileconfig", parameters: ["signed"])
    static let sdkProfile = Endpoint<PathPair<RecordID<ProfileRecord>, Int>, NoBody, FileAnswer<SDKProfileFile>>(
        .get, "/api/v1/profiles/{id}/versions/{number}/sdk-profile", role: .viewer, "Download a version's SDK profile")

    func register(on routes: SecuredRoutes) {
        routes.handle(Self.list) { _, _ in
            Reply(ProfileList(profiles: try await self.profiles.all().map {
                ProfileSummary(id: $0.id, identifier: $0.identifier, name: $0.name, version: $0.version, updatedAt: $0.updatedAt)
            }))
        }
        routes.handle(Self.create, create)
        routes.handle(Self.show) { id, _, _ in try await detail(id) }
        routes.handle(Self.update, update)
        routes.handle(Self.assign) { id, body, request, context in
            if try Self.isDryRun(request) { return try Self.dryRun(try await self.profiles.impact(of: .assign(id, to: body.groupID))) }
            _ = try await assignments.assign(id, to: body.groupID, by: Actor(context.user))
            return try await saved(id)
        }
        routes.handle(Self.unassign) { id, groupID, request, context in
            if try Self.isDryRun(request) { return try Self.dryRun(try await self.profiles.impact(of: .unassign(id, from: groupID))) }
            _ = try await assignments.unassign(id, from: groupID, by: Actor(context.user))
            return try await saved(id)
        }
        routes.handle(Self.mobileconfig, mobileconfig)
        routes.handle(Self.sdkProfile) { id, number, _, _ in
            await Reply(FileAnswer(SDKProfileFile(), bytes: SDKProfile.json(for: try exportInput(id, number))))
        }
    }

    /// The profile's latest version, its number as the ETag.
    private func detail(_ id: RecordID<ProfileRecord>) async throws -> Reply<ProfileAnswer> {
        let (profile, version, groups) = try await self.profiles.detail(id)
        let answer = ProfileAnswer(id: profile.id, identifier: profile.identifier, name: version.content.name,
                                   description: version.content.descriptionMarkdown, version: version.number,
                                   payloads: try version.content.payloads.map(PayloadDocument.init),
                                   groups: groups.map { ProfileAnswer.AssignedGroup(id: $0.id, name: $0.name) })
        return Reply(answer, headers: [.eTag: "\"\(version.number)\""])
    }

    private func saved(_ id: RecordID<ProfileRecord>) async throws -> Reply<ProfileChangeAnswer> {
        let profile = try await detail(id)
        return Reply(.saved(profile.answer), headers: profile.headers)
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
        let catalogProblems = try await self.profiles.catalogProblems(payloads)
        for (index, problems) in catalogProblems.enumerated() { try APIRequest.refuse(problems, under: "payloads.\(index).") }
        return content
    }

    @Sendable func create(body: ProfileBody, request: Request, context: SignedInContext) async throws -> Reply<ProfileAnswer> {
        let actor = Actor(context.user)
        let content = try await content(from: body)
        let identifier = body.identifier ?? ProfileRules.suggestedIdentifier(prefix: ProfilesController.identifierPrefix, name: content.name)
        try APIRequest.refuse(ProfileRules.validate(name: content.name, descriptionMarkdown: content.descriptionMarkdown, identifier: identifier))
        do {
            // One write: the profile and its version 1 with every payload, or nothing.
            let profile = try await store.create(identifier: identifier, content: content, by: actor)
            return try await detail(profile.id)
        } catch StorageError.uniqueViolation {
            throw APIError(status: .conflict, code: .identifierTaken, message: "Another profile uses the identifier \(identifier).", field: "identifier")
        }
    }

    @Sendable func update(_ id: RecordID<ProfileRecord>, body: ProfileBody, request: Request,
                          context: SignedInContext) async throws -> Reply<ProfileChangeAnswer> {
        let actor = Actor(context.user)
        guard let ifMatch = request.headers[.ifMatch] else {
            throw APIError(status: .preconditionRequired, code: .ifMatchRequired,
                           message: "Send If-Match with the version you edited, as the ETag of GET /api/v1/profiles/{id} gives it.")
        }
        guard let precondition = IfMatch(ifMatch) else {
            throw APIError(status: .badRequest, code: .malformedIfMatch, message: "If-Match must be a version such as \"3\", as the ETag gives it, or *.")
        }
        if body.identifier != nil { throw APIRequest.invalid("identifier", "A profile's identifier never changes; leave identifier out when saving a version.") }
        let content = try await content(from: body)
        if try Self.isDryRun(request) {
            let (profile, _, _) = try await self.profiles.detail(id)
            if let base = precondition.baseVersion, base != profile.version { throw Self.versionConflict }
            return try Self.dryRun(try await self.profiles.impact(of: .save(id, content: content)))
        }
        do {
            try await store.saveVersion(of: id, basedOn: precondition.baseVersion, content: content, note: "Saved through the API", by: actor)
        } catch is ProfileStore.Conflict {
            throw Self.versionConflict
        } catch StorageError.versionConflict {
            throw Self.versionConflict
        }
        return try await saved(id)
    }

    /// Whether a change is asked as a dry run; any other query parameter is refused.
    static func isDryRun(_ request: Request) throws -> Bool {
        try APIQuery.refuseUnknown(of: request, allowed: ["dryRun"])
        return try APIQuery.bool("dryRun", of: request) == true
    }

    /// A dry run's answer: what the change would do, with nothing changed.
    static func dryRun(_ preview: ImpactPreview.Result) throws -> Reply<ProfileChangeAnswer> {
        Reply(.dryRun(DryRunAnswer(impact: DryRunAnswer.Impact(preview.impact, appNames: preview.appNames))))
    }

    static let versionConflict = APIError(status: .preconditionFailed, code: .versionConflict,
                                          message: "The profile has a newer version than the one you edited. Read it again and reapply your change.")

    private func exportInput(_ id: RecordID<ProfileRecord>, _ number: Int) async throws -> ProfileExportInput {
        try await self.profiles.export(id, version: number)
    }

    @Sendable func mobileconfig(_ id: RecordID<ProfileRecord>, _ number: Int, request: Request,
                                context: SignedInContext) async throws -> Reply<FileAnswer<MobileConfigFile>> {
        let xml = await Array(MobileConfig.xml(for: try exportInput(id, number)).utf8)
        let bytes = try APIQuery.bool("signed", of: request) == true ? try await signing.sign(xml) : xml
        return Reply(FileAnswer(MobileConfigFile(), bytes: bytes))
    }
}
