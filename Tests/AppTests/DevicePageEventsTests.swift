@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

/// The open device page's event stream: a message with the policy tag at once, another when a
/// commit changes what the device gets, and refusals before any stream starts.
@Suite struct DevicePageEventsTests {
    let devices = DeviceAPITests()

    @Test func aPolicyChangeReachesTheOpenDevicePageWithItsNewTag() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.addUser("hal@example.com", role: .helpdesk)
        try await console.addUser("vic@example.com", role: .viewer)
        let (group, profile) = try await devices.setUp(console)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            let device = try await devices.enroll(admin, name: "Lobby iPad", supervised: true, group: group, app: "com.example.checkin", console: console)
            let helpdesk = Browser(client)
            try await helpdesk.signIn("hal@example.com", password: TestConsole.password)
            let page = try await helpdesk.get("/devices/\(device.id)")
            #expect(page.body.contains(#"data-events-path="/devices/\#(device.id)/events""#))

            async let streamed = helpdesk.get("/devices/\(device.id)/events?timeout=5")
            try await console.untilAStreamListens()
            try await console.services.database.write { _ = try $0.insert(ProfileAssignmentRecord(profileID: profile, groupID: group, assignedAt: Date(), assignedBy: "test")) }
            let stream = try await streamed
            #expect(stream.status == .ok)
            let tags = stream.body.components(separatedBy: "\n").filter { $0.hasPrefix("data: ") }
            if tags.count < 2 {
                // A busy machine may deliver the change after this stream's 5 s: the next
                // stream then starts with the new tag, which must differ from the old one.
                let next = try await helpdesk.get("/devices/\(device.id)/events?timeout=1")
                let newTag = next.body.components(separatedBy: "\n").first { $0.hasPrefix("data: ") }
                #expect(tags.count == 1 && newTag != nil && newTag != tags.first, "\(stream.body) then \(next.body)")
            } else {
                #expect(tags.count == 2, "\(stream.body)")
                #expect(Set(tags).count == 2, "the second message carries the new policy's tag")
            }

            let viewer = Browser(client)
            try await viewer.signIn("vic@example.com", password: TestConsole.password)
            #expect(try await viewer.get("/devices/\(device.id)/events?timeout=1").status == .forbidden)
            #expect(try await helpdesk.get("/devices/999999/events?timeout=1").status == .notFound)
            #expect(try await helpdesk.get("/devices/\(device.id)/events?timeout=0").status == .badRequest)
        }
    }
}
