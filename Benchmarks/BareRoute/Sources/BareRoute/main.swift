import Hummingbird

/// `GET /healthz` answering the console's exact bytes (`{"status":"ok"}` as JSON), with no
/// middleware: the difference to the console's own `/healthz` is what its middleware costs.
struct Status: ResponseEncodable {
    let status = "ok"
}

let port = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 8183
let router = Router()
router.get("/healthz") { _, _ in Status() }
// The MDM benchmark's anchor: the same signed messages, read whole and answered with an empty
// 200 (what the console answers an Idle device with nothing waiting).
router.put("/mdm/command") { request, _ -> HTTPResponse.Status in
    _ = try await request.body.collect(upTo: 1 << 20)
    return .ok
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
