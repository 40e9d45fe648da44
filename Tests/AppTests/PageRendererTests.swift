@testable import App
import Foundation
import Hummingbird
import HTTPTypes
import Logging
import NIOCore
import NIOEmbedded
import Domain
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

@Suite struct HelpLibraryTests {
    /// A payload kind cannot ship without its help page: start-up names the missing file.
    @Test func startUpRefusesAHelpFolderWithoutAPayloadKindsPage() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("help-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: TestConsole.packageRoot.appendingPathComponent("docs/help"), to: folder)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("payloads/geofence.md"))
        do {
            _ = try HelpLibrary.load(directory: folder.path)
            Issue.record("start-up should have refused the folder")
        } catch HelpLibrary.LoadError.missingPages(_, let topics) {
            #expect(topics == ["payloads/geofence"])
        }
    }

    @Test func everyKindsPageHasATitleAndRendersSafely() throws {
        let help = try HelpLibrary.load(directory: TestConsole.packageRoot.appendingPathComponent("docs/help").path)
        for kind in PayloadKind.allCases {
            let page = try #require(help.page(for: kind))
            #expect(page.title == kind.displayName)
            // The panel sits under the form's own heading, so its sections start one level down.
            #expect(page.panelHTML.contains("<h3") && !page.panelHTML.contains("<h1") && !page.panelHTML.contains("<h2"))
        }
        #expect(throws: HelpLibrary.LoadError.self) { try HelpLibrary.page(topic: "x", markdown: "No title line\n") }
    }
}
