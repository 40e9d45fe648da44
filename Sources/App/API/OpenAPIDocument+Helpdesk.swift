import Domain
import Foundation

/// The helpdesk workspace for scripts: a device's token, commands, feedback history and notes.
extension OpenAPIDocument {
    /// A field only some commands read is absent or null on the others: the console refuses
    /// it there rather than ignore it, and says so here, where a JSON Schema can.
    static var commandParameterRules: [[String: Any]] {
        DeviceCommand.RequestType.Parameter.allCases.map { parameter in
            ["if": ["properties": ["requestType": ["not": ["enum": parameter.readers.map(\.rawValue)]]]],
             "then": ["properties": [parameter.rawValue: ["type": "null"]]]]
        }
    }

    static var helpdeskSchemas: [String: Any] { [
        "Command": ["type": "object", "properties": [
            "uuid": ["type": "string"], "requestType": ["type": "string", "enum": DeviceCommand.RequestType.allCases.map(\.rawValue)],
            "summary": ["type": "string"], "status": ["type": "string", "enum": CommandStatus.allCases.map(\.rawValue)],
            "queuedAt": ["type": "string", "format": "date-time"], "queuedBy": ["type": "string"],
            "completedAt": ["type": ["string", "null"], "format": "date-time"], "answer": ["type": "string", "description": "What the device said"],
        ], "example": ["uuid": "7E1F0C2A-55B1-4C1B-9A4E-0F3C2D1B9A77", "requestType": "RequestLogs", "summary": "Capture logs for 15 minutes",
                       "status": "acknowledged", "queuedAt": "2026-11-23T09:30:00Z", "queuedBy": "hal@example.com",
                       "completedAt": "2026-11-23T09:31:10Z", "answer": "Capturing every level for 15 minutes."]],
        "CommandInput": object(required: ["requestType"], [
            "requestType": ["type": "string", "enum": DeviceCommand.RequestType.queueable.map(\.rawValue),
                            "description": commandRoles],
            "apps": plain(optional(JSONSchema(types: [.array], description: "ManagedApplicationFeedback: the apps to ask (empty: every managed app)",
                                              maxItems: DeviceCommand.maximumApps, items: bundleID))),
            "deleteFeedback": plain(optional(.of(.boolean, description: "ManagedApplicationFeedback: the device deletes the feedback after reporting it"), default: .bool(false))),
            "captureMinutes": plain(optional(JSONSchema(types: [.integer], description: "RequestLogs: capture every level this long (absent or null: send what is kept)",
                                                        minimum: 1, maximum: 1440))),
        ]).merging(["allOf": commandParameterRules]) { $1 },
        "Note": ["type": "object", "properties": [
            "id": id, "author": ["type": "string"], "body": ["type": "string", "description": "Markdown"],
            "createdAt": ["type": "string", "format": "date-time"], "updatedAt": ["type": "string", "format": "date-time"],
        ], "example": ["id": 4, "author": "hal@example.com", "body": "**Charger replaced**; the old one was frayed.",
                       "createdAt": "2026-11-23T09:30:00Z", "updatedAt": "2026-11-23T09:30:00Z"]],
        "NoteInput": object(required: ["body"], [
            "body": ["type": "string", "minLength": 1, "maxLength": NoteStore.maximumLength,
                     "pattern": "^[^\(controlsBesideLineBreaks)]*[^\(whitespace)\(controlsBesideLineBreaks)][^\(controlsBesideLineBreaks)]*$",
                     "description": "Markdown, rendered sanitised; not only spaces; tab and line breaks allowed, other control characters not"],
        ]),
    ] }

    /// Who may queue which command, said from `DeviceCommand.RequestType.role`, which the
    /// route enforces, so the document cannot drift from it.
    static var adminCommands: String {
        DeviceCommand.RequestType.queueable.filter { $0.role == .admin }.map(\.rawValue).joined(separator: ", ")
    }

    static var commandRoles: String {
        let helpdesk = DeviceCommand.RequestType.queueable.filter { $0.role == .helpdesk }.map(\.rawValue).joined(separator: ", ")
        return "\(helpdesk) need helpdesk; \(adminCommands) admin"
    }

    static var helpdeskPaths: [String: Any] { [
        "/api/v1/devices/{id}/token": ["post": operation(
            "Issue the device a new check-in token, shown this once; the old token stops working", role: "admin", parameters: ["id"],
            responses: ["201": ["description": "The token", "content": ["application/json": [
                "schema": ["type": "object", "properties": ["deviceID": id, "token": ["type": "string"]]],
                "example": ["deviceID": 12, "token": "pcd_3mJf0q…"]]]]])],
        "/api/v1/devices/{id}/commands": [
            "get": operation("The device's latest commands, newest first, with their answers", role: "helpdesk", parameters: ["id", "limit"],
                             responses: ok("Commands", ["type": "object", "properties": ["commands": ["type": "array", "items": ref("Command")]]])),
            "post": operation("Queue a command for the device (it runs at the device's next check-in)", role: "helpdesk (admin for \(adminCommands))",
                              parameters: ["id"], body: ref("CommandInput"),
                              responses: ["201": ["description": "Queued"].merging(json(ref("Command"))) { $1 }]),
        ],
        "/api/v1/devices/{id}/feedback": ["get": {
            var op = operation("Every fetch of an app's managed feedback on the device, newest first", role: "helpdesk", parameters: ["id"],
                               responses: ok("Feedback history", ["type": "object", "properties": [
                                   "app": ["type": "string"],
                                   "feedback": ["type": "array", "items": ["type": "object", "properties": [
                                       "fetchedAt": ["type": "string", "format": "date-time"], "wasReset": ["type": "boolean"], "values": ["type": "object"]]]],
                               ]], example: ["app": "com.example.clinicnotes", "feedback": [
                                   ["fetchedAt": "2026-11-23T09:31:10Z", "wasReset": false, "values": ["syncedRecords": 25, "lastError": "E_TIMEOUT"]]]]),
                               extraErrors: ["400": "invalid_query: app is missing or not a bundle ID"])
            op["parameters"] = (op["parameters"] as? [[String: Any]] ?? []) + [
                ["name": "app", "in": "query", "required": true, "schema": plain(bundleID), "description": "The app's bundle ID"]]
            return op
        }()],
        "/api/v1/devices/{id}/notes": [
            "get": operation("The device's notes, newest first", role: "helpdesk", parameters: ["id"],
                             responses: ok("Notes", ["type": "object", "properties": ["notes": ["type": "array", "items": ref("Note")]]])),
            "post": operation("Write a note on the device (audited)", role: "helpdesk", parameters: ["id"], body: ref("NoteInput"),
                              responses: ["201": ["description": "Written"].merging(json(ref("Note"))) { $1 }]),
        ],
        "/api/v1/devices/{id}/notes/{note}": [
            "put": operation("Change a note: its author or an admin (audited)", role: "helpdesk", parameters: ["id", "note"], body: ref("NoteInput"),
                             responses: ok("The note", ref("Note"))),
            "delete": operation("Remove a note: its author or an admin (audited)", role: "helpdesk", parameters: ["id", "note"],
                                responses: ["204": ["description": "Removed"]]),
        ],
    ] }
}
