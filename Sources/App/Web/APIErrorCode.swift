import HTTPTypes

/// Every `code` the JSON API answers in `{"error": {"code", "message", "field"}}`. The raw
/// values are the stable strings clients match on, so a case is never renamed; the OpenAPI
/// document's `Error` schema lists them from `allCases`. An error is thrown with a case, so a
/// code nobody declared here cannot be answered.
enum APIErrorCode: String, CaseIterable, Codable, Sendable {
    // The request itself: its address, body, headers or query.
    case badRequest = "bad_request"
    case malformedJSON = "malformed_json"
    case malformedForm = "malformed_form"
    case malformedIfMatch = "malformed_if_match"
    case malformedGzip = "malformed_gzip"
    case unknownField = "unknown_field"
    case invalidQuery = "invalid_query"
    case invalidSearch = "invalid_search"
    case invalidParameter = "invalid_parameter"
    case unknownQueryParameter = "unknown_query_parameter"
    case filterRequired = "filter_required"
    case payloadTooLarge = "payload_too_large"
    case bodyTooLarge = "body_too_large"
    case unsupportedMediaType = "unsupported_media_type"
    case unsupportedEncoding = "unsupported_encoding"
    case methodNotAllowed = "method_not_allowed"
    /// A refusal by the framework with a 4xx status none of these names.
    case requestRefused = "request_refused"

    // Who is asking.
    case unauthenticated
    case invalidToken = "invalid_token"
    case invalidDeviceToken = "invalid_device_token"
    case forbidden
    case passwordChangeRequired = "password_change_required"
    case csrfTokenInvalid = "csrf_token_invalid"

    // What the request names, and the rules it must keep.
    case notFound = "not_found"
    case validationFailed = "validation_failed"
    case duplicatePayload = "duplicate_payload"
    case identifierTaken = "identifier_taken"
    case bundleIDTaken = "bundle_id_taken"
    case groupNameTaken = "group_name_taken"
    case groupNotEmpty = "group_not_empty"
    case deviceExists = "device_exists"
    case policyConflict = "policy_conflict"
    case ifMatchRequired = "if_match_required"
    case versionConflict = "version_conflict"

    // Imported files (`ImportProblem`).
    case profileExists = "profile_exists"
    case profileNotFound = "profile_not_found"
    case emptyFile = "empty_file"
    case fileTooLarge = "file_too_large"
    case invalidFile = "invalid_file"
    case notAProfile = "not_a_profile"
    case notText = "not_text"
    case wrongApp = "wrong_app"
    case binaryPlist = "binary_plist"
    case invalidSignature = "invalid_signature"

    // The device API and the simulator.
    case invalidAction = "invalid_action"
    case unknownCommand = "unknown_command"
    case commandFinished = "command_finished"
    case commandNotSent = "command_not_sent"
    case deviceUnenrolled = "device_unenrolled"
    case deviceLeaving = "device_leaving"

    // MDM: enrollment links and the push certificate.
    case pushCertificateMissing = "push_certificate_missing"
    case invalidPushCertificate = "invalid_push_certificate"
    case notAPushCertificate = "not_a_push_certificate"
    case topicChanged = "topic_changed"
    case enrollmentUsed = "enrollment_used"
    case invalidAuthority = "invalid_authority"
    case devicesEnrolled = "devices_enrolled"
    case noLines = "no_lines"
    case tooManyLines = "too_many_lines"
    case invalidLine = "invalid_line"
    case loggingOff = "logging_off"
    case levelNotCollected = "level_not_collected"
    case logCapReached = "log_cap_reached"

    // The console's own state.
    case storageFull = "storage_full"
    case databaseUnavailable = "database_unavailable"
    /// The request's work was cancelled before it finished (the console is shutting down, or
    /// its caller went away); nothing it began was saved half-way.
    case requestCancelled = "request_cancelled"
    case internalError = "internal_error"

    /// The code of a refusal the framework or a page route raised as a bare `HTTPError` with a
    /// client-error status (404 and 400 have their own wording in `Problem`).
    init(refusing status: HTTPResponse.Status) {
        self = switch status {
        case .badRequest: .badRequest
        case .unauthorized: .unauthenticated
        case .forbidden: .forbidden
        case .notFound: .notFound
        case .methodNotAllowed: .methodNotAllowed
        case .contentTooLarge: .payloadTooLarge
        case .unsupportedMediaType: .unsupportedMediaType
        default: .requestRefused
        }
    }
}
