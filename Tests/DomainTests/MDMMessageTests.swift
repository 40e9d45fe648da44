import Domain
import Foundation
import Testing

/// Check-in and command-endpoint bodies as devices send them (keys and types of Apple's
/// schema), and the wrong ones refused by the key at fault.
@Suite struct MDMMessageTests {
    func plist(_ entries: String) throws -> PropertyList {
        try PropertyListReader.read("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>\(entries)</dict></plist>
            """)
    }

    func checkInProblem(_ entries: String) throws -> MDMMessageProblem? {
        do {
            _ = try CheckInMessage.read(try plist(entries))
            return nil
        } catch let problem as MDMMessageProblem {
            return problem
        }
    }

    @Test func authenticateNamesTheDeviceAndItsSerial() throws {
        let message = try CheckInMessage.read(try plist("""
            <key>MessageType</key><string>Authenticate</string><key>Topic</key><string>com.apple.mgmt.External.1</string>
            <key>UDID</key><string>00008030-001A</string><key>SerialNumber</key><string>F9FXK1</string>
            <key>OSVersion</key><string>18.1</string><key>BuildVersion</key><string>22B83</string><key>ProductName</key><string>iPad13,1</string>
            """))
        guard case .authenticate(let authenticate) = message else { Issue.record("not Authenticate: \(message)"); return }
        #expect(authenticate.enrollment == .device(udid: "00008030-001A"))
        #expect(authenticate.serialNumber == "F9FXK1" && authenticate.osVersion == "18.1" && authenticate.productName == "iPad13,1")
    }

    @Test func tokenUpdateKeepsTheTokenPushMagicAndUnlockToken() throws {
        let message = try CheckInMessage.read(try plist("""
            <key>MessageType</key><string>TokenUpdate</string><key>Topic</key><string>com.apple.mgmt.External.1</string>
            <key>UDID</key><string>00008030-001A</string><key>Token</key><data>AAEC</data><key>PushMagic</key><string>magic-1</string>
            <key>UnlockToken</key><data>BAUG</data>
            """))
        guard case .tokenUpdate(let update) = message else { Issue.record("not TokenUpdate: \(message)"); return }
        #expect(update.topic == "com.apple.mgmt.External.1" && update.enrollment == .device(udid: "00008030-001A"))
        #expect(update.token == [0, 1, 2] && update.pushMagic == "magic-1" && update.unlockToken == [4, 5, 6] && !update.awaitingConfiguration)
    }

    @Test func checkOutAndTheMessagesNotServedYetAreNamed() throws {
        #expect(try CheckInMessage.read(try plist("""
            <key>MessageType</key><string>CheckOut</string><key>Topic</key><string>t</string><key>UDID</key><string>U1</string>
            """)) == .checkOut(topic: "t", enrollment: .device(udid: "U1")))
        for type in ["UserAuthenticate", "DeclarativeManagement", "GetToken", "SetBootstrapToken", "GetBootstrapToken"] {
            #expect(try CheckInMessage.read(try plist("<key>MessageType</key><string>\(type)</string>")) == .unsupported(type))
        }
    }

    @Test func aWrongOrMissingKeyIsRefusedByName() throws {
        #expect(try checkInProblem("<key>MessageType</key><string>Hello</string>")?.key == "MessageType")
        #expect(try checkInProblem("<key>Topic</key><string>t</string>")?.key == "MessageType")
        #expect(try checkInProblem("<key>MessageType</key><integer>1</integer>")?.key == "MessageType")
        #expect(try checkInProblem("<key>MessageType</key><string>Authenticate</string><key>Topic</key><string>t</string>")?.key == "UDID")
        #expect(try checkInProblem("""
            <key>MessageType</key><string>TokenUpdate</string><key>Topic</key><string>t</string><key>UDID</key><string>U</string>
            <key>Token</key><string>AAEC</string><key>PushMagic</key><string>m</string>
            """)?.key == "Token", "a token sent as a string is not data")
        #expect(try checkInProblem("""
            <key>MessageType</key><string>TokenUpdate</string><key>Topic</key><string>t</string><key>UDID</key><string>U</string>
            <key>Token</key><data>AAEC</data>
            """)?.key == "PushMagic")
        #expect(throws: MDMMessageProblem.self) { try CheckInMessage.read(.array([])) }
    }

    @Test func aReportNamesItsCommandAndKeepsTheChainInWords() throws {
        let idle = try CommandReportMessage.read(try plist("<key>Status</key><string>Idle</string><key>UDID</key><string>U1</string>"))
        #expect(idle.report == .idle && idle.enrollment == .device(udid: "U1"))
        let error = try CommandReportMessage.read(try plist("""
            <key>Status</key><string>Error</string><key>UDID</key><string>U1</string><key>CommandUUID</key><string>C1</string>
            <key>ErrorChain</key><array><dict><key>ErrorCode</key><integer>12021</integer><key>ErrorDomain</key><string>MCMDMErrorDomain</string>
            <key>LocalizedDescription</key><string>The device is not supervised.</string></dict>
            <dict><key>USEnglishDescription</key><string>Second</string></dict></array>
            """))
        #expect(error.report == .status(.error, commandUUID: "C1"))
        #expect(error.errorSummary == "The device is not supervised. (MCMDMErrorDomain 12021); Second")
        let answer = try CommandReportMessage.read(try plist("""
            <key>Status</key><string>Acknowledged</string><key>EnrollmentID</key><string>E1</string><key>CommandUUID</key><string>C2</string>
            <key>QueryResponses</key><dict><key>OSVersion</key><string>18.1</string></dict>
            """))
        #expect(answer.enrollment == .user(enrollmentID: "E1"))
        #expect(answer.body["QueryResponses"]?["OSVersion"] == .string("18.1"), "the answer's data is kept")
    }

    @Test func aReportWithoutItsCommandOrWithAnUnknownStatusIsRefused() throws {
        for (entries, key) in [("<key>Status</key><string>Acknowledged</string><key>UDID</key><string>U</string>", "CommandUUID"),
                               ("<key>Status</key><string>Done</string><key>UDID</key><string>U</string>", "Status"),
                               ("<key>Status</key><string>Queued</string><key>UDID</key><string>U</string>", "Status"),
                               ("<key>Status</key><string>Idle</string>", "UDID"),
                               ("<key>Status</key><string>Error</string><key>UDID</key><string>U</string><key>CommandUUID</key><string>C</string><key>ErrorChain</key><array><dict><key>ErrorCode</key><string>x</string></dict></array>", "ErrorChain.0.ErrorCode")] {
            do {
                _ = try CommandReportMessage.read(try plist(entries))
                Issue.record("accepted: \(entries)")
            } catch let problem as MDMMessageProblem {
                #expect(problem.key == key, "\(entries)")
            }
        }
    }
}
