import Domain
import Foundation

/// The log store for scripts: reading, searching, downloading and deleting uploaded lines,
/// and crash groups.
extension OpenAPIDocument {
    static var logSchemas: [String: Any] { [
        "LogPage": ["type": "object", "required": ["logs", "index"], "properties": [
            "logs": ["type": "array", "items": ["type": "object", "properties": [
                "id": ["type": "integer"], "deviceID": ["type": ["integer", "null"], "description": "null once the device is removed; deviceName stays"],
                "deviceName": ["type": "string"], "app": ["type": "string"], "appVersion": ["type": "string"],
                "level": ["type": "string", "enum": LogLevel.allCases.map(\.rawValue)], "type": ["type": "string", "enum": ["application", "crash"]],
                "timestamp": ["type": "string", "format": "date-time"], "receivedAt": ["type": "string", "format": "date-time"],
                "message": ["type": "string"], "fields": ["type": "object"],
                "signature": ["type": ["string", "null"], "description": "Crash logs: the line that groups them"],
            ]]],
            "next": ["type": "string", "description": "The next page's address, when there is one"],
            "index": ["type": "object", "required": ["upToDate", "unindexedLines", "waitingSince", "message"],
                      "description": "How far the search index is behind the stored lines. Lines not yet indexed are searched all the same, more slowly.",
                      "properties": [
                          "upToDate": ["type": "boolean"],
                          "unindexedLines": ["type": "integer", "minimum": 0],
                          "waitingSince": ["type": ["string", "null"], "format": "date-time", "description": "When the oldest line still to index arrived"],
                          "message": ["type": ["string", "null"], "description": "The viewer's sentence when many lines wait"],
                      ]],
        ]],
        "CrashGroups": ["type": "object", "required": ["crashGroups"], "properties": [
            "crashGroups": ["type": "array", "items": ["type": "object", "properties": [
                "app": ["type": "string"], "signature": ["type": "string", "description": "The first meaningful line of the report, addresses blanked"],
                "crashes": ["type": "integer"], "devices": ["type": "integer"],
                "appVersions": ["type": "array", "items": ["type": "string"]],
                "firstSeen": ["type": "string", "format": "date-time"], "lastSeen": ["type": "string", "format": "date-time"],
                "logs": ["type": "string", "description": "GET this for the group's crash logs"],
            ]]],
        ]],
    ] }

    static var logLineExample: [String: Any] { [
        "id": 48213, "deviceID": 12, "deviceName": "Ward 3 iPad", "app": "com.example.clinicnotes", "appVersion": "2.4",
        "level": "error", "type": "application", "timestamp": "2026-11-23T09:30:05.250Z", "receivedAt": "2026-11-23T09:31:00Z",
        "message": "Sync failed: E_TIMEOUT after 30 s", "fields": ["screen": "handover"], "signature": NSNull(),
    ] }

    static var logPaths: [String: Any] { [
        "/api/v1/logs": [
            "get": operation("Log lines devices uploaded, newest first, a page at a time (follow next)", role: "helpdesk",
                             parameters: ["log filters", "limit"],
                             responses: ok("Lines", ref("LogPage"), example: ["logs": [logLineExample], "next": "/api/v1/logs?app=com.example.clinicnotes&before=48213&limit=100",
                                                                          "index": ["upToDate": true, "unindexedLines": 0, "waitingSince": NSNull(), "message": NSNull()]]),
                             extraErrors: ["400": "invalid_query (field names the parameter) or invalid_search (q could not be read; the message says why)"]),
            "delete": {
                var op = operation("Delete the lines matching the filters, or the lines named by repeated line=ID (at most \(LogDownload.maximumChosen)); with neither, all=true deletes every line. Removed in small batches; audited.",
                                   role: "admin", parameters: ["log filters"],
                                   responses: ok("How many lines went", ["type": "object", "required": ["deleted"], "properties": ["deleted": ["type": "integer"]]],
                                                 example: ["deleted": 1250]),
                                   extraErrors: ["400": "invalid_query, invalid_search, or filter_required (no filter, no line and no all=true)"])
                op["parameters"] = (op["parameters"] as? [[String: Any]] ?? []) + [
                    ["name": "line", "in": "query", "required": false, "schema": ["type": "array", "items": id], "style": "form", "explode": true,
                     "description": "Ids of lines to delete (instead of filters)"],
                    ["name": "all", "in": "query", "required": false, "schema": ["type": "boolean"], "description": "true to delete every line when no filter is given"],
                ]
                return op
            }(),
        ],
        "/api/v1/logs/export": ["get": {
            var op = operation("Every line matching the filters, oldest first, streamed as NDJSON (the fields of GET /api/v1/logs) or plain text",
                               role: "helpdesk", parameters: ["log filters"],
                               responses: ["200": ["description": "The lines", "content": [
                                   "application/x-ndjson": ["schema": ["type": "string"], "example": "{\"id\":48213,\"deviceID\":12,\"deviceName\":\"Ward 3 iPad\",\"app\":\"com.example.clinicnotes\",\"level\":\"error\",\"message\":\"Sync failed: E_TIMEOUT after 30 s\"}\n"],
                                   "text/plain": ["schema": ["type": "string"], "example": "2026-11-23T09:30:05.250Z ERROR Ward 3 iPad  com.example.clinicnotes 2.4: Sync failed: E_TIMEOUT after 30 s\n"],
                               ]]],
                               extraErrors: ["400": "invalid_query (field names the parameter) or invalid_search"])
            op["parameters"] = (op["parameters"] as? [[String: Any]] ?? []) + [
                ["name": "format", "in": "query", "required": false, "schema": ["type": "string", "enum": ["ndjson", "text"]], "description": "Default ndjson"],
            ]
            return op
        }()],
        "/api/v1/logs/crashes": ["get": {
            var op = operation("Crash groups: crash logs grouped by signature, most recently seen first", role: "helpdesk", parameters: ["limit"],
                               responses: ok("Crash groups", ref("CrashGroups"), example: ["crashGroups": [[
                                   "app": "com.example.clinicnotes", "signature": "Exception Type: EXC_BAD_ACCESS at 0x…", "crashes": 14, "devices": 6,
                                   "appVersions": ["2.4", "2.4.1"], "firstSeen": "2026-11-20T08:02:11Z", "lastSeen": "2026-11-23T09:12:40Z",
                                   "logs": "/api/v1/logs?app=com.example.clinicnotes&type=crash&signature=Exception%20Type%3A%20EXC_BAD_ACCESS%20at%200x%E2%80%A6",
                               ]]]))
            op["parameters"] = (op["parameters"] as? [[String: Any]] ?? []) + [
                ["name": "app", "in": "query", "required": false, "schema": ["type": "string", "minLength": 1], "description": "Only this app's groups"],
                ["name": "device", "in": "query", "required": false, "schema": ["type": "integer", "minimum": 1],
                 "description": "Only this device's crashes (its id); each group's logs link keeps it"],
                ["name": "hours", "in": "query", "required": false, "schema": ["type": "integer", "minimum": 1, "maximum": 24 * 366],
                 "description": "Only crashes logged in the last this many hours"],
            ]
            return op
        }()],
    ] }
}
