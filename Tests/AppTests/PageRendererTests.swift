@testable import App
import Foundation
import Hummingbird
import HTTPTypes
import Logging
import NIOCore
import NIOEmbedded
import Testing

@Suite struct PageRendererTests {
    /// A page whose template is missing used to come back as a 200 with an empty body.
    @Test func aMissingTemplateThrowsInsteadOfRenderingABlankPage() async throws {
        let renderer = try await PageRenderer.load(directory: TestConsole.packageRoot.appendingPathComponent("Templates").path,
                                                   cookies: CookieJar(alwaysSecure: false), required: ["layout"])
        let request = Request(head: HTTPRequest(method: .get, scheme: "http", authority: "console", path: "/"), body: .init(buffer: ByteBuffer()))
        let context = AppRequestContext(source: ApplicationRequestContextSource(channel: EmbeddedChannel(), logger: Logger(label: "test")))
        #expect(throws: PageRenderer.RenderError.self) {
            try renderer.page("no/such/page", title: "Nothing", request: request, context: context)
        }
        let page = try renderer.page("sign-in", title: "Sign in", request: request, context: context)
        #expect(page.status == .ok)
    }

    /// Each payload kind's form is checked for at start-up, with the pages every request needs.
    @Test func startUpRefusesATemplatesFolderWithoutAPayloadKindsForm() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("templates-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: TestConsole.packageRoot.appendingPathComponent("Templates"), to: folder)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("profiles/payloads/dlp.mustache"))
        do {
            _ = try await PageRenderer.load(directory: folder.path, cookies: CookieJar(alwaysSecure: false), required: requiredTemplates)
            Issue.record("start-up should have refused the folder")
        } catch PageRenderer.LoadError.missingTemplates(_, let names) {
            #expect(names == ["profiles/payloads/dlp"])
        }
    }
}
