import Domain
/// The largest bodies the console reads, in one place: the README's Security section quotes
/// these, and a larger body is answered 413 (a page for browsers, a JSON error for the API)
/// before any of it is parsed.
enum RequestLimits {
    /// A URL-encoded form: the longest is a profile description (20,000 characters) or a
    /// managed configuration with many keys, far below this.
    static let formBody = 1 << 20
    /// A multipart form: four logos of at most 1 MB each, with room for the other fields.
    static let multipartBody = 5 << 20
    /// A JSON body of the API.
    static let jsonBody = 1 << 20
    /// A file sent as an API body (a .mobileconfig, a specfile): the importers' own limit.
    static let importedFile = max(ProfileImporter.maximumBytes, AppConfigSpecReader.maximumBytes)

    /// A device's log upload, as sent (perhaps gzip) and once inflated: ten thousand lines
    /// (the most a batch may have) of typical length, well under the worst case of 8 KB each.
    static let logUpload = 8 << 20
    static let logUploadInflated = 16 << 20

    /// What a person or script is told when a body is over its limit.
    static let description = "The request is larger than the console accepts: forms up to 1 MB, forms with uploads up to 5 MB, API bodies (JSON or an imported file) up to 1 MB, device log uploads up to 8 MB (16 MB once inflated)."
}
