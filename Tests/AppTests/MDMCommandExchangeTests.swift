@testable import App
import Domain
import Foundation
import HTTPTypes
import Storage
import Testing

/// The command endpoint's turns for an enrolled device: its report recorded through the queue,
/// the next command handed out one at a time as Apple's plist, NotNow honoured for the run,
/// inventory answers shown on the device's record.
@Suite struct MDMCommandExchangeTests {
    let checkIns = MDMCheckInTests()

    struct Enrolled {
        let fixture: MDMCheckInTests.Fixture
        let device: RecordID<DeviceRecord>
        /// One for the device's life, as the console keeps one: it remembers quiet devices.
        let exchange: MDMCommandExchange

        func turn(_ entries: [(String, PropertyList)]) async throws -> PropertyList? {
            let body = PropertyList.dictionary([("UDID", .string("00008030-001A2B3C"))] + entries)
            return try await exchange.exchange(try CommandReportMessage.read(body), rawBody: body.xmlDocument(), from: device)
        }

        func idle() async throws -> PropertyList? { try await turn([("Status", .string("Idle"))]) }

        func report(_ status: String, _ command: PropertyList?, _ extra: [(String, PropertyList)] = []) async throws -> PropertyList? {
            guard case .string(let uuid)? = command?["CommandUUID"] else { Issue.record("no command to report on"); return nil }
            return try await turn([("Status", .string(status)), ("CommandUUID", .string(uuid))] + extra)
        }

        func commands() throws -> [DeviceCommandRecord] {
            try fixture.read { try $0.fetch(DeviceCommandRecord.query().order(by: "id")) }
        }
    }

    func enrolled() async throws -> Enrolled {
        let fixture = try await checkIns.fixture()
        try await fixture.issue("AA01")
        let device = try #require(try await fixture.checkIns.handle(MDMCheckInTests.authenticate(), signedBy: "AA01"))
        return Enrolled(fixture: fixture, device: device,
                        exchange: MDMCommandExchange(database: fixture.console.services.database, now: fixture.console.services.config.now))
    }

    static func requestType(_ command: PropertyList?) -> String? {
        if case .string(let type)? = command?["Command"]?["RequestType"] { return type }
        return nil
    }

    @Test func anIdleDeviceIsHandedItsInventoryOneAtATimeAndItsAnswersReachItsRecord() async throws {
        let device = try await enrolled()
        let first = try await device.idle()
        #expect(Self.requestType(first) == "DeviceInformation")
        #expect(try device.commands().map(\.status) == [.sent, .queued, .queued, .queued])
        let second = try await device.report("Acknowledged", first, [("QueryResponses", .dictionary([
            ("DeviceName", .string("Ward 4 iPad")), ("OSVersion", .string("18.2")), ("IsSupervised", .boolean(true)),
            ("DeviceCapacity", .real(64)), ("AvailableDeviceCapacity", .real(20.5)),
        ]))])
        #expect(Self.requestType(second) == "SecurityInfo")
        let record = try device.fixture.read { try $0.require(DeviceRecord.self, id: device.device) }
        #expect(record.name == "Ward 4 iPad" && record.osVersion == "18.2" && record.isSupervised)
        let answered = try #require(try device.commands().first)
        #expect(answered.status == .acknowledged && answered.report?.contains("Ward 4 iPad") == true, "the report is kept as sent")
        let third = try await device.report("Acknowledged", second, [("SecurityInfo", .dictionary([("PasscodePresent", .boolean(true))]))])
        let fourth = try await device.report("Acknowledged", third, [("InstalledApplicationList", .array([
            .dictionary([("Identifier", .string("com.example.notes")), ("Name", .string("Notes")), ("ShortVersion", .string("2.1"))]),
        ]))])
        #expect(Self.requestType(fourth) == "ProfileList")
        #expect(try await device.report("Acknowledged", fourth, [("ProfileList", .array([]))]) == nil, "nothing left: an empty answer")
        let enrolled = try #require(try device.fixture.read { try $0.fetchOne(MDMDeviceRecord.query()) })
        #expect(enrolled.inventory?.passcodePresent == true && enrolled.inventory?.availableGB == 20.5)
        #expect(try device.fixture.read { try $0.require(DeviceRecord.self, id: device.device) }.installedApps == ["com.example.notes"])
    }

    /// A device says Idle far more often than anything waits: such a turn writes nothing until
    /// its last-seen time is a minute old.
    @Test func anIdleTurnWithNothingWaitingWritesNothingWithinAMinute() async throws {
        let device = try await enrolled()
        try await device.fixture.console.services.database.write { _ = try $0.execute("DELETE FROM device_commands") }
        let lastSeen = { try device.fixture.read { try $0.fetchOne(MDMDeviceRecord.query()) }?.lastSeenAt }
        let first = try lastSeen()
        device.fixture.console.clock.advance(by: 30)
        #expect(try await device.idle() == nil)
        #expect(try lastSeen() == first, "seen 30 seconds ago: nothing to write")
        device.fixture.console.clock.advance(by: 60)
        #expect(try await device.idle() == nil)
        #expect(try lastSeen() == device.fixture.console.clock.now)
    }

    /// A quiet device's Idle is answered from memory; whatever is queued for it, here or on
    /// another console, is on its next turn all the same, and a device that checked out is
    /// refused even though it was quiet a moment before.
    @Test func aDeviceKnownQuietIsToldOfWhatIsQueuedAndOfItsCheckOut() async throws {
        let device = try await enrolled()
        let services = device.fixture.console.services
        try await services.database.write { _ = try $0.execute("DELETE FROM device_commands") }
        #expect(try await device.idle() == nil, "seen: its last-seen time written")
        #expect(try await device.idle() == nil)
        #expect(device.exchange.quietDevices.quiet(device.device) != nil, "remembered as quiet")
        let user = try await device.fixture.console.addUser("hal@example.com", role: .helpdesk)
        try await services.commands.enqueue(DeviceCommand(requestType: .restartDevice), for: device.device, by: user)
        #expect(Self.requestType(try await device.idle()) == "RestartDevice")
        device.fixture.console.clock.advance(by: CommandProgress.inFlight + 1)
        try await services.database.write { _ = try $0.execute("DELETE FROM device_commands") }
        #expect(try await device.idle() == nil)
        #expect(try await device.idle() == nil)
        #expect(device.exchange.quietDevices.quiet(device.device) != nil)
        let checkOut = try CheckInMessage.read(.dictionary([("MessageType", .string("CheckOut")), ("Topic", .string("t")), ("UDID", .string("00008030-001A2B3C"))]))
        try await device.fixture.checkIns.handle(checkOut, signedBy: "AA01")
        await #expect(throws: MDMCommandExchange.Refusal.notEnrolled) { _ = try await device.idle() }
    }

    /// A quiet device's minute comes round: its last-seen write is the turn's only work, and it
    /// stays known quiet with the new time — the next Idle reads nothing — unless another write
    /// committed meanwhile.
    @Test func aQuietDeviceStaysKnownQuietThroughItsOwnLastSeenWrite() async throws {
        let device = try await enrolled()
        let services = device.fixture.console.services
        try await services.database.write { _ = try $0.execute("DELETE FROM device_commands") }
        #expect(try await device.idle() == nil)
        device.fixture.console.clock.advance(by: 61)
        #expect(try await device.idle() == nil, "a minute on: its last-seen time written")
        let quiet = try #require(device.exchange.quietDevices.quiet(device.device), "still known quiet after its own write")
        #expect(quiet.lastSeenAt == device.fixture.console.clock.now)
        let stored = try await services.database.read { try $0.fetchOne(MDMDeviceRecord.query().filter("deviceID", .equal, device.device)) }
        #expect(stored?.lastSeenAt == quiet.lastSeenAt)
        // Another write between the stamp and the check: nothing is kept.
        let stamp = services.database.commitCount
        try await services.database.write { _ = try $0.execute("UPDATE mdm_devices SET topic = topic WHERE deviceID = \(device.device)") }
        try await services.database.write { _ = try $0.execute("UPDATE mdm_devices SET topic = topic WHERE deviceID = \(device.device)") }
        device.exchange.quietDevices.seen(device.device, quiet, at: quiet.lastSeenAt ?? .now, onlyWriteSince: stamp)
        #expect(device.exchange.quietDevices.quiet(device.device) == nil)
    }

    /// A fleet's minutes come round together: their Idles' last-seen writes go in together,
    /// each answered once its time is stored, each device still known quiet after.
    @Test func manyQuietDevicesLastSeenTimesAreWrittenTogether() async throws {
        let device = try await enrolled()
        var devices = [device.device]
        for index in 1..<40 {
            try await device.fixture.issue("B\(index)")
            devices.append(try #require(try await device.fixture.checkIns.handle(
                MDMCheckInTests.authenticate(udid: "00008030-\(index)", serial: "SER\(index)"), signedBy: "B\(index)")))
        }
        let services = device.fixture.console.services
        try await services.database.write { _ = try $0.execute("DELETE FROM device_commands") }
        let exchange = device.exchange
        let idle: @Sendable (RecordID<DeviceRecord>) async throws -> PropertyList? = { id in
            let body = PropertyList.dictionary([("UDID", .string("x")), ("Status", .string("Idle"))])
            return try await exchange.exchange(try CommandReportMessage.read(body), rawBody: body.xmlDocument(), from: id)
        }
        for id in devices { #expect(try await idle(id) == nil) }
        device.fixture.console.clock.advance(by: 61)
        let commitsBefore = services.database.commitCount
        try await withThrowingTaskGroup(of: PropertyList?.self) { group in
            for id in devices { group.addTask { try await idle(id) } }
            for try await answer in group { #expect(answer == nil) }
        }
        let now = device.fixture.console.clock.now
        let seen = try await services.database.read { try $0.fetch(MDMDeviceRecord.query()) }
        #expect(seen.count == 40 && seen.allSatisfy { $0.lastSeenAt == now }, "every device's time is stored before its answer")
        let checkedIn = try await services.database.read { try $0.fetch(DeviceRecord.query()) }.filter { devices.contains($0.id) }
        #expect(checkedIn.allSatisfy { $0.lastCheckInAt == now })
        if services.database.dialect == .sqlite {
            #expect(services.database.commitCount - commitsBefore < 40, "fewer transactions than devices (PostgreSQL writes each alone)")
        }
    }

    /// Two check-ins of one device at once (a retry racing the first, on another instance)
    /// never both get a command; one whose answer was lost is sent again a minute later.
    @Test func aCommandOnItsWayIsNotHandedToASecondCheckInUntilItsAnswerIsTakenAsLost() async throws {
        let device = try await enrolled()
        let first = try await device.idle()
        let racing = try await device.idle()
        #expect(Self.requestType(first) == "DeviceInformation")
        #expect(Self.requestType(racing) == "SecurityInfo", "the second check-in gets the next command, not the same one")
        device.fixture.console.clock.advance(by: CommandProgress.inFlight + 1)
        let again = try await device.idle()
        #expect(again?["CommandUUID"] == first?["CommandUUID"], "no answer came within a minute: sent again")
    }

    @Test func aCommandPutOffIsNotOfferedAgainUntilTheDeviceReportsSomethingElse() async throws {
        let device = try await enrolled()
        let information = try await device.idle()
        let security = try await device.report("NotNow", information)
        #expect(Self.requestType(security) == "SecurityInfo", "the next command, not the one put off")
        let apps = try await device.report("NotNow", security)
        #expect(Self.requestType(apps) == "InstalledApplicationList")
        let profiles = try await device.report("Error", apps, [("ErrorChain", .array([.dictionary([("LocalizedDescription", .string("Busy"))])]))])
        #expect(Self.requestType(profiles) == "DeviceInformation", "a report that is not NotNow ends the run")
        let statuses = try device.commands().map { "\($0.requestType.rawValue) \($0.status.rawValue) \($0.notNowCount)" }
        #expect(statuses == ["DeviceInformation sent 1", "SecurityInfo notNow 1", "InstalledApplicationList error 0", "ProfileList queued 0"])
        #expect(try device.commands()[2].resultSummary == "Busy")
    }

    @Test func aReportOnACommandNotSentToThisDeviceChangesNothing() async throws {
        let device = try await enrolled()
        _ = try await device.idle()
        let notSent = try #require(try device.commands().last)
        let before = try device.commands().map(\.status)
        await #expect(throws: MDMCommandExchange.Refusal.notItsCommand) {
            _ = try await device.turn([("Status", .string("Acknowledged")), ("CommandUUID", .string(notSent.uuid))])
        }
        await #expect(throws: MDMCommandExchange.Refusal.notItsCommand) {
            _ = try await device.turn([("Status", .string("Acknowledged")), ("CommandUUID", .string(UUID().uuidString))])
        }
        #expect(try device.commands().map(\.status) == before)
    }

    @Test func aCommandTheConsoleCannotWriteIsClosedSayingWhyAndTheNextIsSent() async throws {
        let device = try await enrolled()
        let time = device.fixture.console.clock.now
        try await device.fixture.console.services.database.write { connection in
            _ = try connection.execute("DELETE FROM device_commands")
            for type in [DeviceCommand.RequestType.clearPasscode, .restartDevice] {
                _ = try connection.insert(DeviceCommandRecord(deviceID: device.device, command: DeviceCommand(requestType: type), queuedAt: time, queuedBy: "ann"))
            }
        }
        let next = try await device.idle()
        #expect(Self.requestType(next) == "RestartDevice")
        let closed = try #require(try device.commands().first)
        #expect(closed.status == .error && closed.resultSummary.contains("unlock token"))
    }

    @Test func aDeviceThatCheckedOutGetsNothing() async throws {
        let device = try await enrolled()
        let checkOut = try CheckInMessage.read(.dictionary([("MessageType", .string("CheckOut")), ("Topic", .string("t")), ("UDID", .string("00008030-001A2B3C"))]))
        try await device.fixture.checkIns.handle(checkOut, signedBy: "AA01")
        await #expect(throws: MDMCommandExchange.Refusal.notEnrolled) { _ = try await device.idle() }
        #expect(try device.commands().allSatisfy { $0.status == .queued })
    }
}

/// The device page of a real device: its enrollment, push and what it reported, and no
/// simulator to open; a simulated device's page has no MDM card.
@Suite struct MDMDevicePageTests {
    @Test func aRealDevicesPageShowsItsEnrollmentPushAndInventory() async throws {
        let device = try await MDMCommandExchangeTests().enrolled()
        let console = device.fixture.console
        try await console.addUser("hal@example.com", role: .helpdesk)
        try await console.test { client in
            let desk = Browser(client)
            try await desk.signIn("hal@example.com", password: TestConsole.password)
            let before = try await desk.get("/devices/\(device.device)")
            #expect(before.body.contains(#"id="mdm-no-inventory""#))
            #expect(before.body.contains("No push token yet"))
            #expect(!before.body.contains(#"id="open-simulator""#), "a real device has no simulator")

            try await device.fixture.checkIns.handle(MDMCheckInTests.tokenUpdate(unlock: true), signedBy: "AA01")
            let first = try await device.idle()
            _ = try await device.report("Acknowledged", first, [("QueryResponses", .dictionary([
                ("DeviceName", .string("Ward <4> iPad")), ("ModelName", .string("iPad")), ("OSVersion", .string("18.2")),
                ("DeviceCapacity", .real(64)), ("AvailableDeviceCapacity", .real(20.5)), ("BatteryLevel", .real(0.81)),
            ]))])
            let after = try await desk.get("/devices/\(device.device)")
            #expect(after.body.contains("<h1>Ward &lt;4&gt; iPad</h1>"), "the name it reported, escaped")
            #expect(after.body.contains("20.5 GB free of 64.0 GB") && after.body.contains("81 %"))
            #expect(after.body.contains("Alive: token given") && after.body.contains("unlock token is kept"))
            #expect(after.body.contains(#"data-command=""#) && after.body.contains("Read device information"))
        }
    }

    @Test func aSimulatedDevicesPageHasNoMDMCard() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("hal@example.com", role: .helpdesk)
        let device = try await console.services.database.write { try $0.insert(IdsNeverReusedTests.device("Lobby iPad")) }
        try await console.test { client in
            let desk = Browser(client)
            try await desk.signIn("hal@example.com", password: TestConsole.password)
            let page = try await desk.get("/devices/\(device.id)")
            #expect(!page.body.contains(#"id="mdm""#))
            #expect(page.body.contains(#"id="open-simulator""#))
        }
    }
}

/// Real devices are asked for their inventory daily, never twice while the questions wait.
@Suite struct MDMInventoryRefreshTests {
    @Test func aDayOldInventoryIsAskedForAgainAndWaitingQuestionsAreNotRepeated() async throws {
        let device = try await MDMCommandExchangeTests().enrolled()
        let console = device.fixture.console
        let refresh = MDMInventoryRefresh(database: console.services.database, now: console.services.config.now)
        #expect(try await refresh.refresh() == 0, "the enrollment's questions still wait")
        var next = try await device.idle()
        while next != nil {
            let type = MDMCommandExchangeTests.requestType(next)
            let answer: [(String, PropertyList)] = switch type {
            case "DeviceInformation": [("QueryResponses", .dictionary([("OSVersion", .string("18.2"))]))]
            case "SecurityInfo": [("SecurityInfo", .dictionary([]))]
            case "InstalledApplicationList": [("InstalledApplicationList", .array([]))]
            default: [("ProfileList", .array([]))]
            }
            next = try await device.report("Acknowledged", next, answer)
        }
        #expect(try await refresh.refresh() == 0, "answered just now")
        console.clock.advance(by: MDMInventoryRefresh.interval + 60)
        #expect(try await refresh.refresh() == 1)
        #expect(try device.commands().filter { $0.status == .queued }.map(\.requestType) == MDMInventoryRefresh.commands)
        #expect(try await refresh.refresh() == 0, "not twice while they wait")
    }
}

/// A person's commands to a real device: Apple's MDM commands, each offered where Apple runs
/// it and refused beside its field when not, erase confirmed by the device's name; nothing for
/// a device that unenrolled.
@Suite struct MDMCommandFormTests {
    let api = APITests()

    @Test func theFormOffersAppleCommandsWhereAppleRunsThemAndChecksEachField() async throws {
        let device = try await MDMCommandExchangeTests().enrolled()
        let console = device.fixture.console
        try await console.addUser("ann@example.com", role: .admin)
        try await console.addUser("hal@example.com", role: .helpdesk)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            let path = "/devices/\(device.device)"
            let page = try await admin.get(path)
            #expect(page.body.contains(#"<option value="DeviceLock">Lock the screen</option>"#))
            #expect(page.body.contains(#"<option value="RestartDevice" disabled>Restart — Apple runs restart only on supervised devices.</option>"#))
            #expect(!page.body.contains(#"value="RequestLogs""#), "the SDK's commands are not a real device's")

            let unsupervised = try await admin.post(path + "/commands", ["requestType": "RestartDevice"])
            #expect(unsupervised.status == .unprocessableContent && unsupervised.body.contains("only on supervised devices"))
            try await admin.get(path)
            let lost = try await admin.post(path + "/commands", ["requestType": "EnableLostMode", "footnote": "Thanks"])
            #expect(lost.status == .unprocessableContent && lost.body.contains(#"id="command-message-error""#))
            #expect(lost.body.contains(#"value="Thanks""#), "what was typed comes back")
            try await admin.get(path)
            let wrongName = try await admin.post(path + "/commands", ["requestType": "EraseDevice", "confirmName": "iPad"])
            #expect(wrongName.status == .unprocessableContent && wrongName.body.contains(#"id="command-confirm-error""#))
            try await admin.get(path)
            #expect(try await admin.post(path + "/commands", ["requestType": "DeviceLock", "message": "Back to the desk", "phoneNumber": "+44 20 7946 0000"]).status == .seeOther)
            try await admin.get(path)
            #expect(try await admin.post(path + "/commands", ["requestType": "EraseDevice", "confirmName": "iPad (F9FXK1LMN)"]).status == .seeOther)

            let desk = Browser(client)
            try await desk.signIn("hal@example.com", password: TestConsole.password)
            try await desk.get(path)
            #expect(try await desk.post(path + "/commands", ["requestType": "EraseDevice", "confirmName": "iPad (F9FXK1LMN)"]).status == .forbidden)
        }
        let queued = try device.commands().filter { $0.queuedBy == "ann@example.com" }
        #expect(queued.map(\.requestType) == [.deviceLock, .eraseDevice])
        #expect(queued.first?.parameters.message == "Back to the desk")
        let erased = try await console.services.database.read { try $0.fetch(AuditEvent.query().filter("action", .equal, "device.command")) }
        #expect(erased.contains { $0.after == "Erase all content and settings" && $0.actorEmail == "ann@example.com" }, "who erased is audited")
        // The lock's texts reach the device in Apple's keys.
        try await console.services.database.write { _ = try $0.execute("DELETE FROM device_commands WHERE queuedBy <> 'ann@example.com'") }
        let lock = try await device.idle()
        #expect(lock?["Command"]?["Message"] == .string("Back to the desk") && lock?["Command"]?["PhoneNumber"] == .string("+44 20 7946 0000"))
    }

    @Test func theAPIQueuesAppleCommandsForRealDevicesOnlyAndNothingForOneThatLeft() async throws {
        let device = try await MDMCommandExchangeTests().enrolled()
        let console = device.fixture.console
        let simulated = try await console.services.database.write { try $0.insert(IdsNeverReusedTests.device("Lobby iPad")) }
        let token = try await api.token(console, role: .helpdesk)
        try await console.test { client in
            let real = try await api.call(client, .post, "/api/v1/devices/\(device.device)/commands", token: token, body: #"{"requestType": "SecurityInfo"}"#)
            #expect(real.status == .created)
            let sdkOnReal = try await api.call(client, .post, "/api/v1/devices/\(device.device)/commands", token: token, body: #"{"requestType": "RequestLogs"}"#)
            #expect(sdkOnReal.status == .unprocessableContent && api.errorCode(sdkOnReal.json) != nil)
            let appleOnSimulated = try await api.call(client, .post, "/api/v1/devices/\(simulated.id)/commands", token: token, body: #"{"requestType": "SecurityInfo"}"#)
            #expect(appleOnSimulated.status == .unprocessableContent)
            let checkOut = try CheckInMessage.read(.dictionary([("MessageType", .string("CheckOut")), ("Topic", .string("t")), ("UDID", .string("00008030-001A2B3C"))]))
            try await device.fixture.checkIns.handle(checkOut, signedBy: "AA01")
            let left = try await api.call(client, .post, "/api/v1/devices/\(device.device)/commands", token: token, body: #"{"requestType": "SecurityInfo"}"#)
            #expect(left.status == .conflict && api.errorCode(left.json) == "device_unenrolled")
        }
    }
}
