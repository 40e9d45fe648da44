import Domain
import Testing

/// A viewer watches a simulated device but may not press its buttons: the page says so beside
/// them, rather than showing buttons that look pressable and do nothing.
@Suite struct SimulatorViewerTests {
    @Test func aViewerSeesWhyTheDevicesButtonsAreNotTheirs() async throws {
        let console = try await TestConsole.make()
        let device = try DeviceListTests.seedDevices(console, ["Lobby kiosk"])[0]
        try await console.test { client in
            let viewer = try await DeviceWorkspaceTests().signedIn(console, client, "val@example.com", .viewer)
            let watched = try await viewer.get("/simulator/\(device)").body
            #expect(watched.contains(#"id="home-button" disabled"#) && watched.contains(#"id="restart-button" disabled"#))
            #expect(watched.contains("pressing its buttons takes the helpdesk or admin role"))
            let helpdesk = try await DeviceWorkspaceTests().signedIn(console, client, "hal@example.com", .helpdesk)
            let used = try await helpdesk.get("/simulator/\(device)").body
            #expect(!used.contains(#"id="home-button" disabled"#) && !used.contains("viewer-hint"))
        }
    }
}
