import Domain
import Foundation
import Hummingbird
import NIOCore
import Storage

/// What a device calls, authenticated by its token: check-in (the effective policy with an
/// ETag), the same policy as a `.mobileconfig`, log uploads, the status beacon, and the
/// MDM-style command channel.
struct DeviceAPIController {
    let services: Services

    func register(on routes: DeviceRoutes) {
        routes.get("/api/v1/device/policy") { request, context in
            let (_, document) = try await checkIn(context)
            return Self.conditional(request, tag: document.tag, contentType: "application/json; charset=utf-8", body: document.buffer)
        }
        routes.get("/api/v1/device/policy.mobileconfig") { request, context in
            let (device, document) = try await checkIn(context)
            let xml = DeviceMobileConfig.xml(udid: device.udid, deviceName: device.name, policy: document.policy ?? .empty,
                                             organisation: document.organisation)
            return Self.conditional(request, tag: document.mobileConfigTag, contentType: "application/x-apple-aspen-config", body: ByteBuffer(string: xml))
        }
        routes.post("/api/v1/device/logs", use: uploadLogs)
        routes.post("/api/v1/device/beacon") { request, context in
            let body = try await APIRequest.decode(BeaconBody.self, from: request).validated()
            let beacon = try await services.beacons.record(body, from: context.device.id)
            return try .jsonObject(["deviceCompliance": beacon.deviceCompliance.rawValue, "enrollment": beacon.enrollment.rawValue])
        }
        routes.get("/api/v1/device/commands") { _, context in
            let queued = try await services.deviceChannel.pending(for: context.device.id)
            return try .jsonObject(["commands": queued.map(Self.envelope)])
        }
        routes.post("/api/v1/device/commands/{uuid}") { request, context in
            let uuid = try context.parameters.require("uuid")
            let reply = try await APIRequest.decode(CommandReplyBody.self, from: request)
            let status = try reply.status()
            let updated: DeviceCommandRecord
            do {
                updated = try await services.deviceChannel.answer(uuid, from: context.device.id, status: status, summary: reply.summary(for: status),
                                                                  feedback: try reply.feedback())
            } catch DeviceChannelService.AnswerRefusal.unknownCommand {
                throw APIError(status: .notFound, code: .unknownCommand, message: "This device has no command \(uuid.clipped(to: 60)).")
            } catch DeviceChannelService.AnswerRefusal.alreadyAnswered {
                throw APIError(status: .conflict, code: .commandFinished, message: "The command was already answered.")
            }
            return try .jsonObject(["CommandUUID": updated.uuid, "Status": status.mdmName])
        }
    }

    /// NDJSON log lines, plain or gzip: stored all together, or refused with the first reason.
    @Sendable func uploadLogs(request: Request, context: DeviceRequestContext) async throws -> Response {
        var request = request
        let body = try await request.collectBody(upTo: RequestLimits.logUpload)
        let device = context.device
        do {
            let batch = try await services.logDecoding.batch(from: body, contentType: request.headers[.contentType],
                                                             contentEncoding: request.headers[.contentEncoding])
            // The policy the device gets at check-in decides which levels the console keeps.
            let document = try await services.checkIns.document(group: device.groupID, generation: device.generation, database: services.database)
            let stored = try await services.logStore.ingest(batch, from: LogStore.Uploader(id: device.id, name: device.name),
                                                            logging: document.policy?[Logging.self])
            return try .jsonObject(["stored": stored])
        } catch let refusal as LogStore.Refusal {
            switch refusal {
            case .batch(let problem): throw LogUpload.refusal(problem)
            case .capReached: throw APIError(status: .contentTooLarge, code: .logCapReached, message: refusal.message)
            }
        }
    }

    /// The checking-in device and its group's cached policy; the check-in is recorded.
    private func checkIn(_ context: DeviceRequestContext) async throws -> (CheckingInDevice, PolicyDocument) {
        let device = context.device
        let document = try await services.checkIns.document(group: device.groupID, generation: device.generation, database: services.database)
        try await services.deviceChannel.noteCheckIn(device)
        return (device, document)
    }

    /// `304 Not Modified` when the device already has this tag, else the body with its ETag.
    static func conditional(_ request: Request, tag: String, contentType: String, body: ByteBuffer) -> Response {
        let etag = "\"\(tag)\""
        if let sent = request.headers[.ifNoneMatch], sent == etag || Self.listMatches(sent, etag) {
            return Response(status: .notModified, headers: [.eTag: etag, .cacheControl: "no-cache"])
        }
        return Response(status: .ok, headers: [.contentType: contentType, .eTag: etag, .cacheControl: "no-cache"],
                        body: .init(byteBuffer: body))
    }

    /// `If-None-Match` may list several tags, weak ones marked `W/`, or `*`. Devices send back
    /// the one tag they were given, which the caller compares first without any parsing.
    static func listMatches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag || tag == "*"
        }
    }

    /// Apple's command envelope: `{CommandUUID, Command: {RequestType, …}}`.
    static func envelope(_ command: DeviceCommandRecord) -> [String: Any] {
        var inner: [String: Any] = ["RequestType": command.requestType.rawValue]
        let parameters = command.parameters
        switch command.requestType {
        case .managedApplicationFeedback:
            inner["Identifiers"] = parameters.apps
            inner["DeleteFeedback"] = parameters.deleteFeedback
        case .requestLogs:
            if let minutes = parameters.captureMinutes { inner["CaptureMinutes"] = minutes }
        case .installProfile, .removeProfile:
            inner["ProfileName"] = parameters.profileName ?? ""
        case .settings, .restartDevice, .clearGuidedAccessPasscode:
            break
        }
        return ["CommandUUID": command.uuid, "Command": inner, "Status": command.status.mdmName]
    }
}

extension CommandStatus {
    /// The word MDM uses in replies.
    var mdmName: String {
        switch self {
        case .queued: "Queued"
        case .acknowledged: "Acknowledged"
        case .error: "Error"
        case .notNow: "NotNow"
        }
    }
}
