@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Storage
import Testing

/// The helpdesk API answers with the types its document is read from, and the document's rule
/// of which command reads which field comes from the command types, as the server applies it.
@Suite struct HelpdeskAnswerTests {
    let api = APITests()

    func answer<Answer: APIAnswer>(_ type: Answer.Type, _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ path: String,
                                   token: String, body: String? = nil) async throws -> (HTTPResponse.Status, Answer, [String: Any]) {
        var headers: HTTPFields = [.authorization: "Bearer \(token)"]
        if body != nil { headers[.contentType] = "application/json" }
        let response = try await client.execute(uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        let data = Data(response.body.readableBytesView)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (response.status, try APIAnswerCoding.decoder.decode(type, from: data), object)
    }

    @Test func everyHelpdeskAnswerReadsBackAsTheTypeTheDocumentDescribes() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let helpdesk = try await api.token(console, role: .helpdesk)
        let admin = try await api.token(console, role: .admin)
        try await console.test { client in
            let browser = Browser(client)
            try await browser.signIn("ann@example.com", password: TestConsole.password)
            let device = try await DeviceAPITests().enroll(browser, name: "Van 7", supervised: true, group: nil, app: nil, console: console)
            let base = "/api/v1/devices/\(device.id)"

            let (status, queued, raw) = try await answer(CommandAnswer.self, client, .post, "\(base)/commands", token: helpdesk,
                                                         body: #"{"requestType": "RequestLogs", "captureMinutes": 30}"#)
            #expect(status == .created && queued.requestType == .requestLogs && queued.status == .queued && queued.completedAt == nil)
            #expect(raw["completedAt"] is NSNull, "a command not yet answered says so with null, as the document's required field")
            let (_, listed, _) = try await answer(CommandList.self, client, .get, "\(base)/commands", token: helpdesk)
            #expect(listed.commands.map(\.uuid) == [queued.uuid])

            let (_, note, _) = try await answer(NoteAnswer.self, client, .post, "\(base)/notes", token: helpdesk, body: #"{"body": "Screen cracked"}"#)
            let (_, edited, _) = try await answer(NoteAnswer.self, client, .put, "\(base)/notes/\(note.id)", token: admin, body: #"{"body": "Screen replaced"}"#)
            #expect(edited.id == note.id && edited.body == "Screen replaced" && edited.author == note.author)
            let (_, notes, _) = try await answer(NoteList.self, client, .get, "\(base)/notes", token: helpdesk)
            #expect(notes.notes.map(\.body) == ["Screen replaced"])

            let (_, history, _) = try await answer(FeedbackHistory.self, client, .get, "\(base)/feedback?app=com.example.notes", token: helpdesk)
            #expect(history.app == "com.example.notes" && history.feedback.isEmpty)
            let (issued, token, _) = try await answer(IssuedToken.self, client, .post, "\(base)/token", token: admin)
            #expect(issued == .created && token.deviceID == device.id && token.token.hasPrefix("pcd_"))
        }
    }

    @Test func theDocumentSaysWhichCommandReadsEachFieldAsTheServerRefusesIt() async throws {
        let components = try #require((try await TestConsole.openAPIDocument())["components"] as? [String: Any])
        let input = try #require((components["schemas"] as? [String: Any])?["CommandInput"] as? [String: Any])
        let rules = try #require(input["allOf"] as? [[String: Any]])
        let sample: [DeviceCommand.RequestType.Parameter: String] = [.apps: #"["com.example.notes"]"#, .deleteFeedback: "true", .captureMinutes: "5",
                                                                    .message: #""Return me""#, .phoneNumber: #""+44 20 7946 0000""#, .footnote: #""Thanks""#,
                                                                    .confirmName: #""Lobby iPad""#]
        for parameter in DeviceCommand.RequestType.Parameter.allCases {
            // The rule: unless requestType is one of these, the field is null or absent.
            let rule = try #require(rules.first { (($0["then"] as? [String: Any])?["properties"] as? [String: Any])?[parameter.rawValue] != nil })
            let condition = try #require(((rule["if"] as? [String: Any])?["properties"] as? [String: Any])?["requestType"] as? [String: Any])
            let readers = try #require((condition["not"] as? [String: Any])?["enum"] as? [String])
            for (type, overMDM) in DeviceCommand.RequestType.queueable.map({ ($0, false) }) + DeviceCommand.RequestType.queueableOverMDM.map({ ($0, true) }) {
                let body = #"{"requestType": "\#(type.rawValue)", "\#(parameter.rawValue)": \#(sample[parameter] ?? "null")}"#
                let refused: Bool
                do {
                    _ = try APIRequest.decode(CommandBody.self, from: Data(body.utf8)).command(for: CommandDraft.Target(name: "Lobby iPad", overMDM: overMDM, isSupervised: true, osVersion: "18.1"))
                    refused = false
                } catch let error as APIError {
                    refused = error.field == parameter.rawValue
                }
                #expect(refused == !readers.contains(type.rawValue), "\(type.rawValue) with \(parameter.rawValue)")
            }
        }
        #expect(rules.count == DeviceCommand.RequestType.Parameter.allCases.count)
    }

    @Test func theDocumentsExamplesAreValuesOfTheirTypes() throws {
        let reader = SchemaReader()
        _ = try reader.schema(of: NoteList.self)
        _ = try reader.schema(of: CommandList.self)
        for (name, type) in [("Note", NoteAnswer.self), ("Command", CommandAnswer.self)] as [(String, any APIAnswer.Type)] {
            let example = try #require(reader.components[name]?.example, "\(name) shows an example")
            #expect(throws: Never.self) { try APIAnswerCoding.decoder.decode(type, from: JSONEncoder().encode(example)) }
        }
    }
}
