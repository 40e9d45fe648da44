import Hummingbird

/// `GET /healthz` answering the console's exact bytes (`{"status":"ok"}` as JSON), with no
/// middleware: the difference to the console's own `/healthz` is what its middleware costs.
struct Status: ResponseEncodable {
    let status = "ok"
}

let port = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 8183
let router = Router()
router.get("/healthz") { _, _ in Status() }
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
