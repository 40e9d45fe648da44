import Domain
import Foundation
import Hummingbird
import NIOCore
import Storage

/// What a device calls, authenticated by its token: check-in (the effective policy with an
/// ETag), the same policy as a `.mobileconfig`, log uploads, the status beacon, and the
/// MDM-style command channel.
struct DeviceAPIController {
    let beacons: BeaconStore
    let commands: CommandQueue
    let logDecoding: LogUploadDecoding
    let checkIns: CheckInCache
    let database: Database
    let logStore: LogStore

    static let policy = APIEndpoint<NoBody, ConditionalAnswer<PolicyJSON>>(
        .get, "/api/v1/device/policy", access: .device,
        "Check in: the device's effective policy (ETag; If-None-Match answers 304 while unchanged)", parameters: ["If-None-Match"])
    static let policyMobileConfig = APIEndpoint<NoBody, ConditionalAnswer<MobileConfigFile>>(
        .get, "/api/v1/device/policy.mobileconfig", access: .device,
        "Check in for a .mobileconfig of the effective policy (ETag and 304 as for the JSON)", parameters: ["If-None-Match"])
    static let uploadLogs = APIEndpoint<LogUploadBody, StoredLines>(
        .post, "/api/v1/device/logs", access: .device,
        "Upload log lines: NDJSON, one LogLine per line, plain or Content-Encoding: gzip; stored all together or refused with the first bad line",
        otherAnswers: [413: "body_too_large, or log_cap_reached (the app's share of the store is full)",
                       415: "unsupported_media_type or unsupported_encoding",
                       422: "invalid_line (field lines.N.name), no_lines, too_many_lines (over \(LogBatch.maximumLines)), logging_off, or level_not_collected (a level the device's logging policy does not collect)"])
    static let beacon = APIEndpoint<BeaconBody, BeaconAnswer>(
        .post, "/api/v1/device/beacon", access: .device,
        "Send the status beacon (on unlock or when the app asks): the app's and iOS's versions, enrollment and compliance; the device page and list show the last one",
        otherAnswers: [422: "validation_failed, with field"])
    static let waitingCommands = APIEndpoint<NoBody, PendingCommands>(
        .get, "/api/v1/device/commands", access: .device, "Commands waiting for this device, oldest first; each is marked sent, and offered again until answered")
    static let answerCommand = Endpoint<String, CommandReplyBody, CommandReplyAnswer>(
        .post, "/api/v1/device/commands/{uuid}", access: .device, "Answer a command", otherAnswers: [404: "unknown_command", 409: "command_finished, or command_not_sent (fetch the waiting commands first)"])

    func register(on routes: DeviceRoutes) {
        routes.handle(Self.policy) { request, context in
            let (_, document) = try await checkIn(context)
            return Reply(ConditionalAnswer(PolicyJSON(), tag: document.tag, body: document.buffer, request: request))
        }
        routes.handle(Self.policyMobileConfig) { request, context in
            let (device, document) = try await checkIn(context)
            let xml = DeviceMobileConfig.xml(udid: device.udid, deviceName: device.name, policy: document.policy ?? .empty,
                                             organisation: document.organisation)
            return Reply(ConditionalAnswer(MobileConfigFile(), tag: document.mobileConfigTag, body: ByteBuffer(string: xml), request: request))
        }
        routes.handle(Self.uploadLogs) { body, _, context in Reply(try await uploadLogs(body, from: context.device)) }
        routes.handle(Self.beacon) { body, _, context in
            let beacon = try await beacons.record(try body.validated(), from: context.device.id)
            return Reply(BeaconAnswer(deviceCompliance: beacon.deviceCompliance, enrollment: beacon.enrollment))
        }
        routes.handle(Self.waitingCommands) { _, context in
            Reply(PendingCommands(commands: try await commands.handOut(to: context.device.id).map { CommandEnvelope($0.command, previous: $0.previous) }))
        }
        routes.handle(Self.answerCommand) { uuid, reply, _, context in
            let status = try reply.status()
            let report = CommandReport(status: status, summary: reply.summary(for: status), feedback: try reply.feedback())
            let updated: DeviceCommandRecord
            do {
                updated = try await commands.record(report, for: uuid, from: context.device.id)
            } catch CommandQueue.Refusal.unknownCommand {
                throw APIError(status: .notFound, code: .unknownCommand, message: "This device has no command \(uuid.clipped(to: 60)).")
            } catch CommandQueue.Refusal.progress(.notSent) {
                throw APIError(status: .conflict, code: .commandNotSent, message: "The command was not sent to this device yet: fetch the waiting commands first.")
            } catch CommandQueue.Refusal.progress {
                throw APIError(status: .conflict, code: .commandFinished, message: "The command was already answered.")
            }
            return Reply(CommandReplyAnswer(uuid: updated.uuid, status: status.protocolName))
        }
    }

    /// NDJSON log lines, plain or gzip: stored all together, or refused with the first reason.
    private func uploadLogs(_ body: LogUploadBody, from device: CheckingInDevice) async throws -> StoredLines {
        do {
            let uploader = LogStore.Uploader(id: device.id, name: device.name)
            var upload: LogStore.Upload? = try await logDecoding.batch(from: body.bytes, contentType: body.contentType,
                                                                       contentEncoding: body.contentEncoding) { [logStore] in
                logStore.prepare($0, from: uploader)
            }
            defer { logDecoding.discard(&upload) }
            // The policy the device gets at check-in decides which levels the console keeps.
            let document = try await checkIns.document(group: device.groupID, generation: device.generation, database: database)
            return StoredLines(stored: try await logStore.ingest(upload!, logging: document.policy?[Logging.self]))
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
        let document = try await checkIns.document(group: device.groupID, generation: device.generation, database: database)
        try await CheckInRecording.note(device.id, lastRecorded: device.lastCheckInAt, at: commands.now(), in: database)
        return (device, document)
    }
}
