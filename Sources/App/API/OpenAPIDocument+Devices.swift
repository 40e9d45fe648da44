import Domain
import Foundation

/// The device side: check-in, commands, beacon and log upload.
extension OpenAPIDocument {
    static var deviceSchemas: [String: Any] { [
        "PolicyDocument": ["type": "object", "required": ["payloads", "conflict", "warnings"], "properties": [
            "payloads": ["type": "array", "items": ref("Payload"), "description": "The effective policy, with Apple's and the SDK's key names"],
            "conflict": ["type": "array", "items": ["type": "string"], "description": "Apps of a Single App Mode conflict; when not empty, payloads is empty and the device keeps its previous policy"],
            "warnings": ["type": "array", "items": ["type": "string"]],
        ]],
        "CommandEnvelope": ["type": "object", "properties": [
            "CommandUUID": ["type": "string"], "Status": ["type": "string", "enum": ["Queued", "NotNow"]],
            "Command": ["type": "object", "required": ["RequestType"], "properties": [
                "RequestType": ["type": "string", "enum": DeviceCommand.RequestType.allCases.map(\.rawValue)],
                "Identifiers": ["type": "array", "items": ["type": "string"]], "DeleteFeedback": ["type": "boolean"],
                "CaptureMinutes": ["type": "integer"],
            ]],
        ]],
        "CommandReply": ["type": "object", "required": ["Status"], "additionalProperties": true,
                         "description": "Keys other than Status and ErrorChain (UDID, CommandUUID, results) are accepted and ignored, as MDM clients send them. The command's answer keeps the chain's descriptions within \(CommandReplyBody.maximumSummary.formatted()) characters, counting those left out.", "properties": [
            "Status": ["type": "string", "enum": ["Acknowledged", "Error", "NotNow"]],
            "ErrorChain": ["type": "array", "items": ["type": "object", "properties": [
                "ErrorCode": ["type": "integer"], "ErrorDomain": plain(plainText), "LocalizedDescription": plain(plainText)]]],
            "ManagedApplicationFeedback": ["type": "array", "maxItems": DeviceCommand.maximumApps,
                                           "description": "The answer to ManagedApplicationFeedback: each app's feedback dictionary, kept as its history; keys and text values of all apps together at most \(CommandReplyBody.maximumFeedbackCharacters) characters",
                                           "items": ["type": "object", "required": ["Identifier"], "properties": [
                                               "Identifier": plain(bundleID),
                                               "Feedback": ["type": "object", "maxProperties": CommandReplyBody.maximumFeedbackKeys,
                                                            "propertyNames": ["pattern": "^[^\(controls)]+$", "maxLength": CommandReplyBody.maximumFeedbackKeyLength],
                                                            "additionalProperties": ["oneOf": [["type": "number"], ["type": "boolean"],
                                                                                               ["type": "string", "maxLength": CommandReplyBody.maximumFeedbackTextLength,
                                                                                                "pattern": "^[^\(controlsBesideLineBreaks)]*$"]]]],
                                           ]]],
        ]],
        "LogLine": ["type": "object", "required": ["app", "level", "type", "timestamp", "message"], "additionalProperties": true,
                    "description": "One line of an upload. Keys the console does not read are accepted and ignored.", "properties": [
            "app": plain(bundleID),
            "appVersion": ["type": "string", "maxLength": 40, "pattern": "^[^\(controls)]*$"],
            "level": ["type": "string", "enum": LogLevel.allCases.map(\.rawValue)],
            "type": ["type": "string", "enum": ["application", "crash"]],
            "timestamp": ["type": "string", "format": "date-time", "description": "When the app logged it, ISO 8601"],
            "message": ["type": "string", "minLength": 1, "maxLength": LogLine.maximumMessageBytes / 4,
                        "pattern": "^[^\(controlsBesideLineBreaks)]+$",
                        "description": "At most 8 KB of UTF-8 (maxLength is the count that always fits); tab and line breaks allowed"],
            "fields": ["type": "object", "maxProperties": LogLine.maximumFields, "description": "Flat: text (at most 1 KB), numbers or booleans",
                       "propertyNames": ["minLength": 1, "maxLength": 64, "pattern": "^[^\(controls)]+$"],
                       "additionalProperties": ["oneOf": [["type": "string", "maxLength": 256, "pattern": "^[^\(controlsBesideLineBreaks)]*$"],
                                                          ["type": "number"], ["type": "boolean"]]]],
        ]],
    ] }

    private static func deviceOperation(_ summary: String, parameters: [String] = [], body: [String: Any]? = nil,
                                        responses: [String: Any], extraErrors: [String: String] = [:]) -> [String: Any] {
        var op = operation(summary, role: "device", parameters: parameters, body: body, responses: responses,
                           extraErrors: ["401": "No device token (unauthenticated) or an unknown one (invalid_device_token)"].merging(extraErrors) { $1 })
        op["description"] = "Called by a device with its own token."
        op["security"] = [["deviceToken": [String]()]]
        var errors = op["responses"] as? [String: Any] ?? [:]
        errors["403"] = nil
        op["responses"] = errors
        return op
    }

    /// NDJSON rather than JSON: the body is described as the array of its lines.
    private static var logUpload: [String: Any] {
        var op = deviceOperation(
            "Upload log lines: NDJSON, one LogLine per line, plain or Content-Encoding: gzip; stored all together or refused with the first bad line",
            responses: ok("Stored", ["type": "object", "required": ["stored"], "properties": ["stored": ["type": "integer"]]]),
            extraErrors: ["413": "body_too_large, or log_cap_reached (the app's share of the store is full)",
                          "415": "unsupported_media_type or unsupported_encoding",
                          "422": "invalid_line (field lines.N.name), no_lines, too_many_lines (over \(LogBatch.maximumLines)), logging_off, or level_not_collected (a level the device's logging policy does not collect)"])
        op["requestBody"] = ["required": true, "content": ["application/x-ndjson": ["schema": [
            "type": "array", "minItems": 1, "maxItems": LogBatch.maximumLines, "items": ref("LogLine")]]]]
        return op
    }

    static var devicePaths: [String: Any] { [
        "/api/v1/device/policy": ["get": deviceOperation(
            "Check in: the device's effective policy (ETag; If-None-Match answers 304 while unchanged)",
            parameters: ["If-None-Match"],
            responses: ok("The policy", ref("PolicyDocument")).merging(["304": ["description": "Not modified: the device's policy is current"]]) { $1 })],
        "/api/v1/device/policy.mobileconfig": ["get": deviceOperation(
            "Check in for a .mobileconfig of the effective policy (ETag and 304 as for the JSON)", parameters: ["If-None-Match"],
            responses: ["200": ["description": "The .mobileconfig", "content": ["application/x-apple-aspen-config": ["schema": ["type": "string"]]]],
                        "304": ["description": "Not modified"]])],
        "/api/v1/device/logs": ["post": logUpload],
        "/api/v1/device/beacon": ["post": deviceOperation(
            "Send the status beacon (on unlock or when the app asks): the app's and iOS's versions, enrollment and compliance; the device page and list show the last one",
            body: ["type": "object", "additionalProperties": false, "required": ["bundleID", "appVersion", "osVersion", "enrollment", "compliance"],
                   "properties": [
                       "bundleID": ["type": "string", "maxLength": BundleID.maximumLength, "pattern": "^\(bundleIDPattern)$"],
                       "appVersion": plain(appleVersion), "osVersion": plain(appleVersion),
                       "enrollment": ["type": "string", "enum": ["enrolled", "wiped"]],
                       "compliance": ["type": "string", "enum": ["compliant", "blocked", "wiped"]],
                       "complianceReason": ["type": ["string", "null"], "maxLength": BeaconBody.maximumReasonLength,
                                            "pattern": "^[^\(controlsBesideLineBreaks)]*$"],
                   ]],
            responses: ok("Recorded", ["type": "object", "properties": ["deviceCompliance": ["type": "string"], "enrollment": ["type": "string"]]]),
            extraErrors: ["422": "validation_failed, with field"])],
        "/api/v1/device/commands": ["get": deviceOperation(
            "Commands waiting for this device, oldest first",
            responses: ok("Commands", ["type": "object", "properties": ["commands": ["type": "array", "items": ref("CommandEnvelope")]]]))],
        "/api/v1/device/commands/{uuid}": ["post": deviceOperation(
            "Answer a command", parameters: ["uuid"], body: ref("CommandReply"),
            responses: ok("Recorded", ["type": "object"]),
            extraErrors: ["404": "unknown_command", "409": "command_finished"])],
    ] }
}
