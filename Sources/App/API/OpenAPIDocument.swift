import Foundation
import Hummingbird
import Domain

/// The OpenAPI 3.1 description of every `/api/` route and the load balancer's checks, served at
/// `GET /api/openapi.json`. A test checks that each such route the router serves is described here.
enum OpenAPIDocument {
    static func ref(_ name: String) -> [String: Any] { ["$ref": "#/components/schemas/\(name)"] }
    /// Either schema: anyOf, since a Profile, whose properties are all optional, would also match a dry run's object.
    static func anyOf(_ schemas: [String: Any]...) -> [String: Any] { ["anyOf": schemas] }

    static func json(_ schema: [String: Any]) -> [String: Any] {
        ["content": ["application/json": ["schema": schema]]]
    }

    private static var errors: [String: Any] { [
        "400": ["description": "Malformed request (code malformed_json, malformed_if_match, invalid_query with field)"].merging(json(ref("Error"))) { $1 },
        "401": ["description": "No or unknown token (unauthenticated, invalid_token)"].merging(json(ref("Error"))) { $1 },
        "403": ["description": "The token's role does not allow this (forbidden)"].merging(json(ref("Error"))) { $1 },
        "404": ["description": "No such item (not_found)"].merging(json(ref("Error"))) { $1 },
        "507": ["description": "The console's disk is full: nothing new is saved, reads go on working (storage_full)"].merging(json(ref("Error"))) { $1 },
        "503": unavailable,
    ] }

    /// Any route that reads or writes the database, while the database server is down or restarting.
    static var unavailable: [String: Any] {
        ["description": "The database is unreachable for now (database_unavailable); Retry-After says when to try again",
         "headers": ["Retry-After": ["description": "Seconds to wait", "schema": ["type": "integer"]]]].merging(json(ref("Error"))) { $1 }
    }

    /// What every operation with a JSON body may also answer.
    private static var bodyErrors: [String: Any] { [
        "413": ["description": "The body is over 1 MB (payload_too_large)"].merging(json(ref("Error"))) { $1 },
        "422": ["description": "A field is missing, unknown (unknown_field), of the wrong type or breaks a rule (validation_failed); field names it"]
            .merging(json(ref("Error"))) { $1 },
    ] }

    /// Ids are positive integers, in paths as in bodies.
    static var id: [String: Any] { ["type": "integer", "format": "int64", "minimum": 1] }
    static var optionalID: [String: Any] { ["type": ["integer", "null"], "format": "int64", "minimum": 1] }

    /// A body object exactly as the server decodes it: the listed fields, no others.
    static func object(required: [String], _ properties: [String: Any]) -> [String: Any] {
        ["type": "object", "required": required, "properties": properties, "additionalProperties": false]
    }

    static func operation(_ summary: String, role: String, parameters: [String] = [], body: [String: Any]? = nil,
                                  responses: [String: Any], extraErrors: [String: String] = [:]) -> [String: Any] {
        var all = errors
        if body != nil { all.merge(bodyErrors) { $1 } }
        for (status, description) in extraErrors { all[status] = ["description": description].merging(json(ref("Error"))) { $1 } }
        for (status, response) in responses { all[status] = response }
        var op: [String: Any] = ["summary": summary, "description": "Requires the \(role) role.", "responses": all,
                                 "security": [["bearer": [String]()]]]
        op["parameters"] = parameters.flatMap { name in
            switch name {
            case "log filters": logFilterParameters
            case "device filters": deviceFilterParameters
            default: [parameter(named: name)]
            }
        }
        if let body { op["requestBody"] = ["required": true].merging(json(body)) { $1 } }
        return op
    }

    /// The log viewer's filters, as `GET /api/v1/logs` takes them.
    static var logFilterParameters: [[String: Any]] {
        func query(_ name: String, _ schema: [String: Any], _ description: String) -> [String: Any] {
            ["name": name, "in": "query", "required": false, "schema": schema, "description": description]
        }
        return [
            query("device", id, "Only this device's lines"),
            query("app", ["type": "string"], "Only this app's lines (its bundle ID; any other text matches nothing)"),
            query("level", ["type": "string", "enum": LogLevel.allCases.map(\.rawValue)], "This level and every more severe one"),
            query("type", ["type": "string", "enum": ["application", "crash"]], "Only app logs or only crash logs"),
            query("from", ["type": "string", "format": "date-time"], "Logged at or after (ISO 8601)"),
            query("to", ["type": "string", "format": "date-time"], "Logged before (ISO 8601)"),
            query("signature", ["type": "string"], "Only the crash logs of this crash group (its signature, as crash groups name it)"),
            query("q", ["type": "string", "maxLength": LogSearch.maximumLength, "pattern": "^[^\(controls)]*$"],
                  "Full-text search: words, \"phrases\", prefix*, AND, OR, NOT and brackets; E_TIMEOUT and com.example.app as typed"),
            query("before", id, "The last id of the previous page (the next link carries it)"),
        ]
    }

    /// The device list's search and filters, as `GET /api/v1/devices` takes them.
    static var deviceFilterParameters: [[String: Any]] {
        func query(_ name: String, _ schema: [String: Any], _ description: String) -> [String: Any] {
            ["name": name, "in": "query", "required": false, "schema": schema, "description": description]
        }
        return [
            query("q", ["type": "string", "maxLength": DeviceListFilter.maximumSearch, "pattern": "^[^\(controls)]*$"],
                  "Part of a name, owner, serial number or UDID, in any case: three characters or more match anywhere inside, one or two the start"),
            query("group", id, "Devices in this group or any group inside it"),
            query("model", ["type": "string", "enum": DeviceModel.allCases.map(\.rawValue)], "Only this model"),
            query("os", ["type": "string", "pattern": "^[0-9.]{1,12}$"], "iOS version: 17 for every 17.x, 17.4 for 17.4 and 17.4.x"),
            query("supervised", ["type": "string", "enum": ["yes", "no"]], "Supervised or not"),
            query("lock", ["type": "string", "enum": DeviceListFilter.LockState.allCases.map(\.rawValue)], "A simulated device's lock"),
            query("conflict", ["type": "string", "enum": ["yes"]], "Only devices whose group's policy has a Single App Mode conflict"),
            query("waiting", ["type": "string", "enum": ["yes"]], "Only devices with commands they have not carried out (queued, or answered NotNow)"),
            query("stale", ["type": "integer", "minimum": 1, "maximum": 3650], "Not checked in for this many days (or never)"),
            query("sort", ["type": "string", "enum": DeviceListFilter.Sort.allCases.flatMap { [$0.rawValue, "-" + $0.rawValue] }], "Order; - for the other way round"),
            query("after", id, "The last id of the previous page (the next link carries it)"),
        ]
    }

    static func parameter(named name: String) -> [String: Any] {
        switch name {
            case "dryRun": ["name": "dryRun", "in": "query", "required": false, "schema": ["type": "boolean"],
                            "description": "true to answer what the change would do to the devices it reaches (which lock, unlock or switch app, new conflicts, settings that change) without making it"]
            case "signed": ["name": "signed", "in": "query", "required": false, "schema": ["type": "boolean"], "description": "true for a CMS-signed profile"]
            case "newProfile": ["name": name, "in": "query", "required": false, "schema": ["type": "boolean"],
                                "description": "true: a new profile even when one matches the file (its identifier then gets .imported)"]
            case "versionOf": ["name": name, "in": "query", "required": false, "schema": id, "description": "The profile the file becomes the next version of"]
            case "after": ["name": name, "in": "query", "required": false, "schema": id, "description": "The last id of the previous page"]
            case "limit": ["name": name, "in": "query", "required": false, "schema": ["type": "integer", "minimum": 1, "maximum": APIQuery.maximumLimit],
                           "description": "Items per page (default \(APIQuery.defaultLimit))"]
            case "udid", "uuid": ["name": name, "in": "path", "required": true, "schema": ["type": "string"]]
            case "If-None-Match": ["name": "If-None-Match", "in": "header", "required": false, "schema": ["type": "string"], "description": "The ETag of the policy the device has; 304 when it is still current"]
            case "If-Match": ["name": "If-Match", "in": "header", "required": true, "schema": ["type": "string", "pattern": #"^(?:\*|(?:W/)?(?:"[0-9]{1,18}"|[0-9]{1,18}))$"#],
                              "description": "The version you edited, as the ETag gives it (\"3\"); * saves over whatever version is current"]
            default: ["name": name, "in": "path", "required": true, "schema": id]
        }
    }

    static func ok(_ description: String, _ schema: [String: Any], example: Any? = nil) -> [String: Any] {
        var content: [String: Any] = ["schema": schema]
        if let example { content["example"] = example }
        return ["200": ["description": description, "content": ["application/json": content]]]
    }

    static var document: [String: Any] {
        let profileIDs = ["id"], versionIDs = ["id", "number"]
        let mobileconfig: [String: Any] = ["200": ["description": "The .mobileconfig (signed bytes are CMS DER, served verbatim)",
                                                   "content": ["application/x-apple-aspen-config": ["schema": ["type": "string", "format": "binary"]]]]]
        return [
            "openapi": "3.1.0",
            "info": ["title": "Payload Console API", "version": "1",
                     "description": "Profiles, payloads, assignments and the catalog. Errors are {\"error\": {\"code\", \"message\", \"field\"}}. Request bodies are refused (422 unknown_field) when they carry a field the operation does not list, so a misspelt field is never silently dropped; inside a payload, Apple's envelope keys (PayloadUUID, PayloadIdentifier, PayloadVersion, PayloadDisplayName, PayloadDescription, PayloadOrganization) are accepted and ignored. The one exception is a device's command reply, which may carry whatever MDM clients send. A method a path does not take answers 405 with Allow."],
            "components": [
                "securitySchemes": [
                    "bearer": ["type": "http", "scheme": "bearer", "description": "An API token (pct_…) from the console's API tokens page or `payload-console token create`."],
                    "deviceToken": ["type": "http", "scheme": "bearer", "description": "A device's check-in token (pcd_…), shown once when the device is enrolled."],
                ],
                "schemas": deviceSchemas.merging(textSchemas) { $1 }.merging(logSchemas) { $1 }.merging(helpdeskSchemas) { $1 }.merging(importSchemas) { $1 }.merging([
                    "Error": ["type": "object", "required": ["error"], "properties": ["error": ["type": "object", "required": ["code", "message"], "properties": [
                        "code": ["type": "string", "enum": APIErrorCode.allCases.map(\.rawValue)], "message": ["type": "string"], "field": ["type": ["string", "null"]], "requestID": ["type": ["string", "null"]],
                    ]]]],
                    "Payload": ["type": "object", "required": ["PayloadType"], "description": "Apple payloads use Apple's keys (com.apple.app.lock with App.Identifier, App.Options, App.UserEnabledOptions; com.apple.applicationaccess with autonomousSingleAppModePermittedAppIDs). SDK payloads use PayloadType com.payloadconsole.sdk.<kind> (\(PayloadKind.allCases.filter { !$0.isApplePayload }.map(\.rawValue).joined(separator: ", "))).",
                                "properties": ["PayloadType": ["type": "string", "enum": PayloadKind.allCases.map(PayloadJSON.payloadType(of:))]],
                                "additionalProperties": true],
                    "ProfileInput": object(required: ["name"], [
                        "name": singleLine(1...120), "description": optional(multiLine, default: ""),
                        "payloads": optional(["type": "array", "items": ref("Payload")], default: [String]()),
                        "identifier": optional(["type": "string", "pattern": "^\(bundleIDPattern)$", "maxLength": BundleID.maximumLength,
                                                "description": "Reverse-DNS; left out, one is made from the name. It never changes."]),
                    ]),
                    "ProfileVersionInput": object(required: ["name"], [
                        "name": singleLine(1...120), "description": optional(multiLine, default: ""),
                        "payloads": optional(["type": "array", "items": ref("Payload")], default: [String]()),
                    ]),
                    "DryRun": ["type": "object", "required": ["dryRun", "impact"], "properties": [
                        "dryRun": ["type": "boolean", "enum": [true]],
                        "impact": ["type": "object", "required": ["devicesReached", "devicesChanged", "locking", "unlocking", "switching", "sdkStarting", "sdkEnding", "groups"], "properties": [
                            "devicesReached": ["type": "integer", "description": "Devices in the groups the change reaches"],
                            "devicesChanged": ["type": "integer", "description": "Of them, devices whose policy is different afterwards"],
                            "locking": ["type": "array", "items": ref("LockChange"), "description": "Devices Single App Mode will hold in an app"],
                            "unlocking": ["type": "array", "items": ref("LockChange"), "description": "Devices Single App Mode will let go"],
                            "switching": ["type": "array", "items": ref("LockChange"), "description": "Devices held in a different app"],
                            "sdkStarting": ["type": "array", "items": ref("SDKEffect"), "description": "What SDK apps start doing on a device (block, wipe), judged against what it last reported; effect not-known where it never reported what the rule compares"],
                            "sdkEnding": ["type": "array", "items": ref("SDKEffect"), "description": "What SDK apps stop doing on a device"],
                            "groups": ["type": "array", "items": ["type": "object", "properties": [
                                "name": ["type": "string"], "devices": ["type": "integer"],
                                "newConflict": ["type": "array", "items": ["type": "string"], "description": "Single App Mode apps newly in conflict: the group's devices keep their current policy"],
                                "resolvedConflict": ["type": "array", "items": ["type": "string"]],
                                "changes": ["type": "array", "items": ["type": "object", "properties": [
                                    "field": ["type": "string"], "before": ["type": ["string", "null"]], "after": ["type": ["string", "null"]]]]],
                            ]]],
                        ]],
                    ], "example": ["dryRun": true, "impact": [
                        "devicesReached": 6, "devicesChanged": 6, "unlocking": [String](), "switching": [String](), "sdkEnding": [String](),
                        "sdkStarting": [["device": "Lobby kiosk 01", "group": "Lobby kiosks", "setting": "compliance", "effect": "block",
                                         "message": "SDK apps blocked: Lobby Check-In earlier than 2.4.1 (compliance rule, by the last reported version)"]],
                        "locking": [["device": "Lobby kiosk 01", "group": "Lobby kiosks", "from": NSNull(), "to": "com.example.checkin"]],
                        "groups": [["name": "Lobby kiosks", "devices": 6, "newConflict": [String](), "resolvedConflict": [String](),
                                    "changes": [["field": "Single App Mode › App › Identifier", "before": NSNull(), "after": "com.example.checkin"]]]],
                    ]]],
                    "SDKEffect": ["type": "object", "required": ["device", "group", "setting", "effect", "message"], "properties": [
                        "device": ["type": "string"], "group": ["type": "string"],
                        "setting": ["type": "string", "enum": ImpactPreview.sdkRuleKinds.map(\.rawValue), "description": "The payload kind the effect comes from"],
                        "effect": ["type": "string", "enum": ["block", "wipe", "not-enforced", "not-known"]],
                        "message": ["type": "string"],
                    ]],
                    "LockChange": ["type": "object", "properties": [
                        "device": ["type": "string"], "group": ["type": "string"],
                        "from": ["type": ["string", "null"], "description": "The app before; null: not locked"],
                        "to": ["type": ["string", "null"], "description": "The app after; null: not locked"],
                    ]],
                    "Profile": ["type": "object", "properties": [
                        "id": ["type": "integer"], "identifier": ["type": "string"], "name": ["type": "string"], "description": ["type": "string"],
                        "version": ["type": "integer"], "payloads": ["type": "array", "items": ref("Payload")],
                        "groups": ["type": "array", "items": ["type": "object", "properties": ["id": ["type": "integer"], "name": ["type": "string"]]]],
                    ]],
                ]) { $1 },
            ],
            "paths": devicePaths.merging(checkPaths) { $1 }.merging(logPaths) { $1 }.merging(helpdeskPaths) { $1 }.merging(importPaths) { $1 }.merging([
                "/api/v1/profiles": [
                    "get": operation("List profiles", role: "viewer", responses: ok("Profiles", ["type": "object"])),
                    "post": operation("Create a profile", role: "admin", body: ref("ProfileInput"),
                                      responses: ["201": ["description": "Created"].merging(json(ref("Profile"))) { $1 }],
                                      extraErrors: ["409": "identifier_taken", "422": "validation_failed or duplicate_payload, with field"]),
                ],
                "/api/v1/profiles/{id}": [
                    "get": operation("Read a profile's latest version (ETag: its version)", role: "viewer", parameters: profileIDs, responses: ok("Profile", ref("Profile"))),
                    "put": operation("Save a new version (with dryRun=true: what it would do to devices, saving nothing)", role: "admin",
                                     parameters: profileIDs + ["If-Match", "dryRun"], body: ref("ProfileVersionInput"),
                                     responses: ok("The new version, or a dry run's impact", anyOf(ref("Profile"), ref("DryRun"))),
                                     extraErrors: ["412": "version_conflict: a newer version exists", "428": "if_match_required", "422": "validation_failed"]),
                ],
                "/api/v1/profiles/{id}/assignments": [
                    "post": operation("Assign to a group (with dryRun=true: what it would do to devices, changing nothing)", role: "admin",
                                      parameters: profileIDs + ["dryRun"], body: object(required: ["groupID"], ["groupID": id]),
                                      responses: ok("The profile, or a dry run's impact", anyOf(ref("Profile"), ref("DryRun")))),
                ],
                "/api/v1/profiles/{id}/assignments/{group}": [
                    "delete": operation("Unassign from a group (with dryRun=true: what it would do to devices, changing nothing)", role: "admin",
                                        parameters: ["id", "group", "dryRun"], responses: ok("The profile, or a dry run's impact", anyOf(ref("Profile"), ref("DryRun")))),
                ],
                "/api/v1/profiles/{id}/versions/{number}/mobileconfig": [
                    "get": operation("Download a version as .mobileconfig", role: "viewer", parameters: versionIDs + ["signed"], responses: mobileconfig),
                ],
                "/api/v1/profiles/{id}/versions/{number}/sdk-profile": [
                    "get": operation("Download a version's SDK profile", role: "viewer", parameters: versionIDs, responses: ok("SDK profile", ["type": "object"])),
                ],
                "/api/v1/groups": [
                    "get": operation("List device groups", role: "viewer", responses: ok("Groups", ["type": "object"])),
                    "post": operation("Create a group", role: "admin",
                                      body: ref("GroupInput"),
                                      responses: ["201": ["description": "Created"].merging(json(["type": "object"])) { $1 }],
                                      extraErrors: ["409": "group_name_taken"]),
                ],
                "/api/v1/apps": [
                    "get": operation("List catalog apps", role: "viewer", responses: ok("Apps", ["type": "object"])),
                    "post": operation("Add an app", role: "admin",
                                      body: ref("AppInput"),
                                      responses: ["201": ["description": "Created"].merging(json(["type": "object"])) { $1 }],
                                      extraErrors: ["409": "bundle_id_taken", "422": "validation_failed"]),
                ],
                "/api/v1/devices": [
                    "get": operation("List devices, a page at a time (follow next)", role: "viewer",
                                     parameters: ["device filters", "limit"], responses: ok("Devices", ["type": "object"])),
                    "post": operation("Add a device", role: "admin",
                                      body: ref("DeviceInput"),
                                      responses: ["201": ["description": "Created"].merging(json(["type": "object"])) { $1 }],
                                      extraErrors: ["409": "device_exists", "422": "validation_failed"]),
                ],
                "/api/v1/apps/{id}": [
                    "delete": operation("Remove an app from the catalog", role: "admin", parameters: ["id"], responses: ["204": ["description": "Removed"]]),
                    "put": operation("Replace an app (same body as POST)", role: "admin", parameters: ["id"], body: ref("AppInput"),
                                     responses: ok("The app", ["type": "object"]), extraErrors: ["409": "bundle_id_taken", "422": "validation_failed"]),
                ],
                "/api/v1/groups/{id}": [
                    "delete": operation("Remove an empty group", role: "admin", parameters: ["id"],
                                        responses: ["204": ["description": "Removed"]], extraErrors: ["409": "group_not_empty"]),
                    "put": operation("Rename or move a group (same body as POST; a group cannot move inside itself)", role: "admin", parameters: ["id"],
                                     body: ref("GroupInput"),
                                     responses: ok("The group", ["type": "object"]), extraErrors: ["409": "group_name_taken", "422": "validation_failed"]),
                ],
                "/api/v1/devices/{id}": [
                    "delete": operation("Remove a device", role: "admin", parameters: ["id"], responses: ["204": ["description": "Removed"]]),
                    "put": operation("Replace a device (same body as POST; fields left out take their defaults)", role: "admin", parameters: ["id"], body: ref("DeviceInput"),
                                     responses: ok("The device", ["type": "object"]), extraErrors: ["409": "device_exists", "422": "validation_failed"]),
                ],
                "/api/v1/devices/{id}/sdk-profile": [
                    "get": operation("A device's effective SDK policy as the SDK profile its apps download (the SDK's key names)", role: "viewer",
                                     parameters: ["id"], responses: ok("SDK profile", ["type": "object"]),
                                     extraErrors: ["409": "policy_conflict: two Single App Mode payloads reach the device"]),
                ],
                "/api/v1/devices/{id}/group": ["put": operation("Move a device to a group (groupID null: no group)", role: "admin", parameters: ["id"],
                                                                 body: object(required: ["groupID"], ["groupID": optionalID]),
                                                                 responses: ["204": ["description": "Moved"]], extraErrors: ["422": "validation_failed"])],
                "/api/openapi.json": ["get": ["summary": "This document", "security": [[String: [String]]](),
                                              "responses": ["200": ["description": "OpenAPI 3.1"].merging(json(["type": "object"])) { $1 }]]],
            ]) { $1 },
        ]
    }

    static func register(on routes: SecuredRoutes) {
        routes.get("/api/openapi.json", .anyone) { _, _ in try .jsonObject(document) }
    }
}
