import Domain
import Foundation

/// The simulator's state, events and actions. (The device API is declared by its endpoints.)
extension OpenAPIDocument {
    /// "startGuidedAccess / endGuidedAccess": the actions that read a field, by their declared names.
    static func readBy(_ actions: SimulatorAction.Name...) -> String {
        actions.map(\.rawValue).joined(separator: " / ")
    }

    static var deviceSchemas: [String: Any] { [
        "SimulatorAction": ["type": "object", "required": ["action"], "additionalProperties": false, "properties": [
            "action": ["type": "string", "enum": SimulatorAction.Name.allCases.map(\.rawValue)],
            "app": ["type": "string", "description": "Bundle ID, for app actions (the app must be on screen, except \(readBy(.launchApp)))"],
            "mode": ["type": "string", "enum": LockRequestMode.allCases.map(\.rawValue), "description": readBy(.requestLock) + ": ASAM (default) or AAC"],
            "confirm": ["type": "boolean", "description": readBy(.requestLock) + ": the user's answer to the prompt (default true)"],
            "passcode": ["type": "string", "description": readBy(.startGuidedAccess, .endGuidedAccess) + ": 4 to 6 digits"],
            "minutes": ["type": "integer", "minimum": 1, "maximum": 10080, "description": readBy(.advanceClock)],
            "latitude": ["type": "number"], "longitude": ["type": "number"],
            "network": ["type": "string", "enum": SimulatedNetwork.allCases.map(\.rawValue)],
            "thirdParty": ["type": "boolean", "description": readBy(.setKeyboard)],
            "text": ["type": "string", "maxLength": 1000, "description": readBy(.copy)],
            "level": ["type": "string", "enum": LogLevel.allCases.map(\.rawValue)],
            "message": ["type": "string", "maxLength": 2000], "count": ["type": "integer", "minimum": 1, "maximum": 1000],
            "version": ["type": "string", "maxLength": 32, "description": readBy(.setOSVersion, .setAppVersion) + ": up to four whole numbers joined by dots"],
            "jailbroken": ["type": "boolean", "description": readBy(.setJailbroken) + " (default true)"],
            "url": ["type": "string", "maxLength": 2000, "description": readBy(.connect, .openLink) + ": an http:// or https:// address"],
            "certificate": ["type": "string", "description": readBy(.connect) + ": what the server presents — pinned-N (the device's Nth pinned certificate, see pinnedCertificates) or interceptor (default pinned-1)"],
            "address": ["type": "string", "maxLength": 2000, "description": readBy(.openMailto) + ": an email address, with or without mailto:"],
            "control": ["type": "string", "enum": HardwareControl.allCases.map(\.rawValue), "description": readBy(.useHardware)],
            "feature": ["type": "string", "enum": AccessibilityFeature.allCases.map(\.rawValue), "description": readBy(.setAccessibility)],
            "on": ["type": "boolean", "description": readBy(.setAccessibility) + " (default true)"],
        ]],
        "SimulatorEvent": ["type": "object", "properties": [
            "at": ["type": "string", "format": "date-time"], "action": ["type": "string"], "rule": ["type": "string"],
            "result": ["type": "string", "enum": ["done", "refused", "blocked", "ignored"]], "message": ["type": "string"],
        ]],
        "SimulatorState": ["type": "object", "properties": [
            "revision": ["type": "integer"], "supervised": ["type": "boolean"], "clock": ["type": "string", "format": "date-time"],
            "network": ["type": "string"], "location": ["type": ["object", "null"]], "foregroundApp": ["type": ["string", "null"]],
            "screen": ["type": "object", "properties": ["kind": ["type": "string", "enum": ["home", "app", "signIn", "blocked"]],
                                                         "app": ["type": "string"], "reason": ["type": "string"]]],
            "lock": ["type": ["object", "null"], "properties": ["mode": ["type": "string", "enum": ["singleAppMode", "autonomous", "assessment", "guidedAccess"]],
                                                                 "app": ["type": "string"]]],
            "turnedOff": ["type": "array", "items": ["type": "string"],
                          "description": "What an assessment (AAC) turns off while its app holds the lock; empty otherwise"],
            "apps": ["type": "array", "items": ["type": "object"]], "pasteboard": ["type": ["object", "null"]],
            "pendingLogs": ["type": "integer"], "policyConflict": ["type": "array", "items": ["type": "string"]],
            "osVersion": ["type": "string"], "jailbroken": ["type": "boolean"],
            "compliance": ["type": "object", "properties": ["state": ["type": "string", "enum": ["compliant", "blocked", "wiped"]],
                                                             "reason": ["type": ["string", "null"]],
                                                             "wipedAt": ["type": ["string", "null"], "format": "date-time"]]],
            "customSettings": ["type": ["string", "null"], "description": "The custom settings SDK apps receive"],
            "hardware": ["type": "object", "properties": [
                "orientation": ["type": "string", "enum": ["portrait", "landscape"]], "volume": ["type": "integer", "minimum": 0, "maximum": 16],
                "silent": ["type": "boolean"], "screenOff": ["type": "boolean"],
                "disabledBySingleAppMode": ["type": "array", "items": ["type": "string"], "description": "What the Single App Mode options switch off while it holds the device"]]],
            "accessibility": ["type": "array", "items": ["type": "string", "enum": AccessibilityFeature.allCases.map(\.rawValue)],
                              "description": "Accessibility features on: the user's, and those Single App Mode turns on"],
            "pinnedCertificates": ["type": "array", "items": ["type": "object", "properties": [
                "certificate": ["type": "string", "description": "The value connect's certificate takes"], "subject": ["type": "string"],
                "publicKeySHA256": ["type": "string"], "notAfter": ["type": "string", "format": "date-time"]]]],
            "managedConfiguration": ["type": "array", "description": "What each managed app received under com.apple.configuration.managed and made of it (user-installed apps receive nothing)",
                                     "items": ["type": "object", "required": ["app", "keys"], "properties": [
                "app": ["type": "string"],
                "keys": ["type": "array", "items": ["type": "object", "required": ["name", "value", "source"], "properties": [
                    "name": ["type": "string"], "value": ["type": "string", "description": "As the app reads it"],
                    "source": ["type": "string", "enum": ["console", "appDefault"],
                               "description": "console: the value the policy sent; appDefault: missing or invalid, so the app fell back to its default"],
                    "note": ["type": ["string", "null"], "description": "Why the app used its default"]]]]]]],
        ]],
    ] }

    /// Server-Sent Events rather than JSON: described by the fields of its two kinds of event.
    private static var simulatorEventStream: [String: Any] {
        var op = operation(
            "A simulated device's timeline and status changes as they happen (Server-Sent Events)", role: "viewer", parameters: ["udid"],
            responses: ["200": ["description": """
                text/event-stream. `event: event` for each timeline event (`id:` is its id, data is a SimulatorEvent with its id); \
                `event: status` with the device's compliance, lock, screen and foreground app whenever one of them changes (and once \
                at the start); `event: gone` when the device is removed. Reconnect with Last-Event-ID to continue where the stream ended.
                """, "content": ["text/event-stream": ["schema": plain(serverSentEvent)]]]],
            extraErrors: ["400": "invalid_parameter, with field"])
        op["parameters"] = (op["parameters"] as? [[String: Any]] ?? []) + [
            ["name": "after", "in": "query", "required": false, "schema": ["type": "integer", "minimum": 0],
             "description": "Send the events after this id first (default: only new events); the Last-Event-ID header does the same"],
            ["name": "timeout", "in": "query", "required": false, "schema": ["type": "integer", "minimum": 1, "maximum": SimulatorAPIController.longestStream],
             "description": "Seconds before the stream ends (default \(SimulatorAPIController.longestStream))"],
        ]
        return op
    }

    static var devicePaths: [String: Any] { [
        "/api/v1/simulator/{udid}": ["get": operation(
            "A simulated device's state (after applying policy changes and queued commands)", role: "viewer",
            parameters: ["udid"], responses: ok("State", ref("SimulatorState")))],
        "/api/v1/simulator/{udid}/events": ["get": simulatorEventStream],
        "/api/v1/simulator/{udid}/actions": ["post": operation(
            "Do something on a simulated device, as the page's controls do", role: "helpdesk", parameters: ["udid"],
            body: ref("SimulatorAction"),
            responses: ok("The timeline event and the state afterwards", ["type": "object", "properties": [
                "event": ref("SimulatorEvent"), "state": ref("SimulatorState")]]),
            extraErrors: ["422": "invalid_action or validation_failed, with field"])],
    ] }

    /// One event of a stream, as OpenAPI 3.1 describes an event stream: each event's fields,
    /// `data` being the JSON text the description says.
    static var serverSentEvent: JSONSchema {
        var schema = JSONSchema.of(.object, description: "One server-sent event; data is JSON text")
        schema.properties = ["event": .string, "data": .string, "id": .string, "retry": .integer]
        return schema
    }
}
