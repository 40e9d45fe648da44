import Foundation
import Hummingbird
import Domain
import Storage

/// The OpenAPI 3.1 description of every `/api/` route and the load balancer's checks, served at
/// `GET /api/openapi.json`. A test checks that each such route the router serves is described here.
enum OpenAPIDocument {
    /// What every operation may answer besides its success.
    static var errors: [String: OpenAPI.Response] { [
        "400": .error("Malformed request (code malformed_json, malformed_if_match, invalid_query with field)"),
        "401": .error("No or unknown token (unauthenticated, invalid_token)"),
        "403": .error("The token's role does not allow this (forbidden)"),
        "404": .error("No such item (not_found)"),
        "507": .error("The console's disk is full: nothing new is saved, reads go on working (storage_full)"),
        "503": unavailable,
    ] }

    /// Any route that reads or writes the database, while the database server is down or restarting.
    static var unavailable: OpenAPI.Response {
        .error("The database is unreachable for now (database_unavailable); Retry-After says when to try again",
               headers: ["Retry-After": OpenAPI.Header(description: "Seconds to wait", schema: .integer)])
    }

    /// What every operation with a JSON body may also answer.
    static var bodyErrors: [String: OpenAPI.Response] { [
        "413": .error("The body is over 1 MB (payload_too_large)"),
        "422": .error("A field is missing, unknown (unknown_field), of the wrong type or breaks a rule (validation_failed); field names it"),
    ] }

    /// Ids are positive integers, in paths as in bodies.
    static var idSchema: JSONSchema { RecordID<Never>.schema }

    /// The log viewer's filters, as `GET /api/v1/logs` takes them.
    static var logFilterParameters: [OpenAPI.Parameter] {
        typealias P = OpenAPI.Parameter
        return [
            P.query("device", idSchema, "Only this device's lines"),
            P.query("app", .string, "Only this app's lines (its bundle ID; any other text matches nothing)"),
            P.query("level", .names(of: LogLevel.self), "This level and every more severe one"),
            P.query("type", .oneOfStrings(["application", "crash"]), "Only app logs or only crash logs"),
            P.query("from", .dateTime, "Logged at or after (ISO 8601)"),
            P.query("to", .dateTime, "Logged before (ISO 8601)"),
            P.query("signature", .string, "Only the crash logs of this crash group (its signature, as crash groups name it)"),
            P.query("q", JSONSchema(types: [.string], pattern: "^[^\(controls)]*$", maxLength: LogSearch.maximumLength),
                    "Full-text search: words, \"phrases\", prefix*, AND, OR, NOT and brackets; E_TIMEOUT and com.example.app as typed"),
            P.query("before", idSchema, "The last id of the previous page (the next link carries it)"),
        ]
    }

    /// The device list's search and filters, as `GET /api/v1/devices` takes them.
    static var deviceFilterParameters: [OpenAPI.Parameter] {
        typealias P = OpenAPI.Parameter
        return [
            P.query("q", JSONSchema(types: [.string], pattern: "^[^\(controls)]*$", maxLength: DeviceListFilter.maximumSearch),
                    "Part of a name, owner, serial number or UDID, in any case: three characters or more match anywhere inside, one or two the start"),
            P.query("group", idSchema, "Devices in this group or any group inside it"),
            P.query("model", .names(of: DeviceModel.self), "Only this model"),
            P.query("os", JSONSchema(types: [.string], pattern: "^[0-9.]{1,12}$"), "iOS version: 17 for every 17.x, 17.4 for 17.4 and 17.4.x"),
            P.query("supervised", .oneOfStrings(["yes", "no"]), "Supervised or not"),
            P.query("lock", .names(of: DeviceListFilter.LockState.self), "A simulated device's lock"),
            P.query("conflict", .oneOfStrings(["yes"]), "Only devices whose group's policy has a Single App Mode conflict"),
            P.query("waiting", .oneOfStrings(["yes"]), "Only devices with commands they have not carried out (queued, or answered NotNow)"),
            P.query("stale", JSONSchema(types: [.integer], minimum: 1, maximum: 3650), "Not checked in for this many days (or never)"),
            P.query("kind", .names(of: DeviceListFilter.Kind.self), "Real devices (MDM) — all, enrolled, unenrolled or with a dead push token — or the simulated and hand-added ones"),
            P.query("sort", .oneOfStrings(DeviceListFilter.Sort.allCases.flatMap { [$0.rawValue, "-" + $0.rawValue] }), "Order; - for the other way round"),
            P.query("after", idSchema, "The last id of the previous page (the next link carries it)"),
        ]
    }

    /// The parameters an operation lists by name: a group of filters, or one parameter.
    static func parameters(named name: String) -> [OpenAPI.Parameter] {
        switch name {
        case "log filters": logFilterParameters
        case "device filters": deviceFilterParameters
        case "event stream": SimulatorAPIController.streamParameters
        default: [parameter(named: name)]
        }
    }

    static func parameter(named name: String) -> OpenAPI.Parameter {
        typealias P = OpenAPI.Parameter
        return switch name {
        case "dryRun": .query(name, .boolean, "true to answer what the change would do to the devices it reaches (which lock, unlock or switch app, new conflicts, settings that change) without making it")
        case "signed": .query(name, .boolean, "true for a CMS-signed profile")
        case "feedback app": P(name: "app", location: .query, required: true, schema: bundleID, description: "The app's bundle ID")
        case "newProfile": .query(name, .boolean, "true: a new profile even when one matches the file (its identifier then gets .imported)")
        case "versionOf": .query(name, idSchema, "The profile the file becomes the next version of")
        case "after": .query(name, idSchema, "The last id of the previous page")
        case "before": .query(name, idSchema, "The last id of the previous page, for lists newest first (the next link carries it)")
        case "limit": .query(name, JSONSchema(types: [.integer], minimum: 1, maximum: APIQuery.maximumLimit), "Items per page (default \(APIQuery.defaultLimit))")
        case "If-None-Match": P(name: name, location: .header, required: false, schema: .string, description: "The ETag of the policy the device has; 304 when it is still current")
        case "If-Match": P(name: name, location: .header, required: true,
                           schema: JSONSchema(types: [.string], pattern: #"^(?:\*|(?:W/)?(?:"[0-9]{1,18}"|[0-9]{1,18}))$"#),
                           description: "The version you edited, as the ETag gives it (\"3\"); * saves over whatever version is current")
        default: P(name: name, location: .path, required: true, schema: idSchema)
        }
    }

    static var info: OpenAPI.Info {
        OpenAPI.Info(title: "Payload Console API", version: "1", description: """
            Profiles, payloads, assignments and the catalog. Errors are {"error": {"code", "message", "field"}}. \
            Request bodies are refused (422 unknown_field) when they carry a field the operation does not list, so a misspelt \
            field is never silently dropped; inside a payload, Apple's envelope keys (PayloadUUID, PayloadIdentifier, \
            PayloadVersion, PayloadDisplayName, PayloadDescription, PayloadOrganization) are accepted and ignored. The one \
            exception is a device's command reply, which may carry whatever MDM clients send. A method a path does not take \
            answers 405 with Allow.
            """)
    }

    static var securitySchemes: [String: OpenAPI.SecurityScheme] { [
        "bearer": OpenAPI.SecurityScheme(description: "An API token (pct_…) from the console's API tokens page or `payload-console token create`."),
        "deviceToken": OpenAPI.SecurityScheme(description: "A device's check-in token (pcd_…), shown once when the device is enrolled."),
    ] }

    /// This document's own entry.
    static var documentPath: [String: [String: OpenAPI.Operation]] { [
        Site.apiDocument.path: ["get": OpenAPI.Operation(summary: "This document", responses: ["200": .json("OpenAPI 3.1", .of(.object))], security: [])],
    ] }

    static func register(on routes: SecuredRoutes) {
        // Read when asked, once every controller has registered its endpoints in the table.
        let table = routes.table
        routes.on(Site.apiDocument) { _, _ in
            let bytes = try APIAnswerCoding.encoder.encode(try document(describing: table.operations))
            return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
    }
}
