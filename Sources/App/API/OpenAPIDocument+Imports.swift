import Domain
import Foundation

/// Files into the console: a `.mobileconfig` and an app's AppConfig specfile, sent as the
/// request body itself.
extension OpenAPIDocument {
    /// The body of an import: the file's bytes, under the media types a client may send it as.
    private static func fileBody(_ mediaTypes: [String], _ description: String) -> [String: Any] {
        ["required": true, "description": description,
         "content": Dictionary(uniqueKeysWithValues: mediaTypes.map { ($0, ["schema": ["type": "string", "format": "binary"]] as [String: Any]) })]
    }

    static var importSchemas: [String: Any] { [
        "ImportedProfile": ["type": "object", "required": ["id", "identifier", "name", "version", "signature", "imported", "leftOut"], "properties": [
            "id": id, "identifier": ["type": "string"], "name": ["type": "string"],
            "version": ["type": "integer", "description": "1 for a new profile; else the version the file became"],
            "signature": ["type": "string", "description": "Not signed, or who signed it and whether the signature holds"],
            "imported": ["type": "array", "items": ["type": "string", "enum": PayloadKind.allCases.map(\.rawValue)]],
            "leftOut": ["type": "array", "items": ["type": "object", "properties": [
                "payloadType": ["type": "string"], "name": ["type": "string"], "reason": ["type": "string"]]]],
        ]],
        "ImportMatches": ["type": "object", "required": ["error", "matches", "newIdentifier"], "properties": [
            "error": ["type": "object", "properties": ["code": ["type": "string", "enum": [APIErrorCode.profileExists.rawValue]], "message": ["type": "string"], "field": ["type": "null"]]],
            "matches": ["type": "array", "items": ["type": "object", "properties": [
                "id": id, "identifier": ["type": "string"], "name": ["type": "string"], "version": ["type": "integer"]]]],
            "newIdentifier": ["type": "string", "description": "The identifier newProfile=true would give"],
        ]],
        "ImportedSpecfile": ["type": "object", "required": ["bundleID", "version", "keys", "skipped"], "properties": [
            "bundleID": ["type": "string"], "version": ["type": "integer"],
            "keys": ["type": "array", "items": ["type": "object", "properties": [
                "name": ["type": "string"], "type": ["type": "string", "enum": ConfigValueType.allCases.map(\.rawValue)]]]],
            "skipped": ["type": "array", "items": ["type": "object", "properties": [
                "key": ["type": "string"], "line": ["type": "integer"], "reason": ["type": "string"]]]],
        ]],
    ] }

    static var importPaths: [String: Any] {
        var profile = operation(
            "Import a .mobileconfig (signed or not, XML, at most 1 MB): a new profile, or with versionOf the next version of a profile. "
                + "Without newProfile or versionOf, a file whose identifier a profile has (or an earlier import of it) answers 409 profile_exists with the matches.",
            role: "admin", parameters: ["newProfile", "versionOf"],
            responses: ["201": ["description": "A new profile"].merging(json(ref("ImportedProfile"))) { $1 },
                        "200": ["description": "The profile's next version"].merging(json(ref("ImportedProfile"))) { $1 },
                        "409": ["description": "profile_exists: choose newProfile=true or versionOf"].merging(json(ref("ImportMatches"))) { $1 }],
            extraErrors: ["404": "profile_not_found (versionOf names no profile)",
                          "413": "payload_too_large: the file is over 1 MB",
                          "422": "empty_file, not_a_profile (not a property list or signed profile, or not a configuration profile), binary_plist, invalid_signature; field body"])
        profile["requestBody"] = fileBody(["application/x-apple-aspen-config", "application/octet-stream"], "The .mobileconfig file's bytes")
        var specfile = operation(
            "Import an app's AppConfig specfile (XML, UTF-8, at most 1 MB), replacing the one before: its keys build the managed app configuration form",
            role: "admin", parameters: ["id"], responses: ok("What was imported", ref("ImportedSpecfile")),
            extraErrors: ["413": "payload_too_large: the file is over 1 MB",
                          "422": "empty_file, not_text, wrong_app (the file describes another bundle ID), or invalid_file (the message names the line); field body"])
        specfile["requestBody"] = fileBody(["application/xml", "text/xml"], "The specfile's text")
        return ["/api/v1/imports/mobileconfig": ["post": profile], "/api/v1/apps/{id}/specfile": ["put": specfile]]
    }
}
