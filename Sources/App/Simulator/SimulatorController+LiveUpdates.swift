import Domain
import Foundation
import Hummingbird
import NIOCore
import Storage
import ServiceLifecycle

extension SimulatorController {
    /// Server-Sent Events: `changed` with the new revision whenever the device changes. The
    /// loop checks a one-row fingerprint four times a second and syncs the device when
    /// anything it depends on moved (policy generation, queued commands, the device record),
    /// so changes made anywhere — pages, API, command line — reach the page within a second.
    @Sendable func events(request: Request, context: SignedInContext) async throws -> Response {
        let id = try context.parameters.require("id", as: RecordID<DeviceRecord>.self)
        let since = request.uri.formParameters["since"].flatMap { Int(String($0)) } ?? -1
        let simulator = self.simulator
        let reader = services.simulatorReader
        _ = try await services.catalogReader.device(id)
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
            body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
                var lastRevision = since
                var lastInputs = ""
                var quietTicks = 0
                // Streams end after a minute, or at once when the console shuts down; the
                // browser reconnects by itself, and a shutdown never waits for open pages.
                let deadline = ContinuousClock.now + .seconds(60)
                while ContinuousClock.now < deadline, !Task.isCancelled, !Task.isShuttingDownGracefully {
                    guard let probe = try await reader.probe(id) else {
                        try await writer.write(ByteBuffer(string: "event: gone\ndata: removed\n\n"))
                        break
                    }
                    if probe.inputs != lastInputs {
                        lastInputs = probe.inputs
                        if try await simulator.sync(id).changed { continue }
                    }
                    if probe.revision != lastRevision {
                        lastRevision = probe.revision
                        try await writer.write(ByteBuffer(string: "event: changed\ndata: \(probe.revision)\n\n"))
                        quietTicks = 0
                    } else {
                        quietTicks += 1
                        if quietTicks % 60 == 0 { try await writer.write(ByteBuffer(string: ": still here\n\n")) }
                    }
                    try await Task.sleep(for: .milliseconds(250))
                }
                try await writer.finish(nil)
            })
    }
}
