import Domain

/// A file sent with a `multipart/form-data` form.
struct UploadedFile: Sendable {
    let filename: String
    let bytes: [UInt8]

    /// The name as the browser sent it, without control characters and at most 200 long: fit
    /// to store and to show.
    var displayName: String {
        String(String(String.UnicodeScalarView(filename.unicodeScalars.filter { PlainText.isAllowed($0, lines: .single) })).prefix(200))
    }
}

/// Splits a `multipart/form-data` body (RFC 7578) into text fields and files.
///
/// Our own strict reader rather than a library's: every byte here comes from an anonymous
/// request, and the parser we used before trapped on an empty boundary and on a header byte
/// above 0x7F. This one checks the boundary, bounds the number and size of part headers,
/// refuses text that is not UTF-8 and a body without its closing delimiter, and reports each
/// as a `Problem` instead of trapping. Nothing is trusted from the parts' own content types:
/// files are checked by their bytes where they are used.
struct MultipartForm {
    enum Problem: Error, Equatable {
        case invalidBoundary
        case missingDelimiter
        case malformedPartHeaders
        case tooManyParts
        case missingFieldName
        case textNotUTF8
        case unterminated
    }

    /// A form of ours has at most a few dozen fields; a thousand parts is an attack.
    static let maximumParts = 1_000
    /// The headers of one part (name, filename, content type) fit easily in 8 KB.
    static let maximumHeaderBytes = 8 * 1024

    private(set) var fields = FormFields()
    private(set) var files: [String: UploadedFile] = [:]

    /// The boundary of a `multipart/form-data` content type as RFC 2046 allows it: 1 to 70
    /// characters from a small set, not ending in a space. nil for anything else.
    static func validBoundary(_ boundary: String) -> String? {
        let allowed = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ".utf8)
        let bytes = Array(boundary.utf8)
        guard (1...70).contains(bytes.count), bytes.allSatisfy(allowed.contains), bytes.last != UInt8(ascii: " ") else { return nil }
        return boundary
    }

    init(parsing body: [UInt8], boundary: String) throws(Problem) {
        guard let boundary = Self.validBoundary(boundary) else { throw .invalidBoundary }
        let delimiter = Array("--\(boundary)".utf8)
        let separator = [UInt8(ascii: "\r"), UInt8(ascii: "\n")] + delimiter
        // The first delimiter opens the body (a preamble before it is allowed and ignored).
        guard var position = Self.firstDelimiter(delimiter, in: body) else { throw .missingDelimiter }
        var pairs: [(String, String)] = []
        var partCount = 0
        while true {
            position += delimiter.count
            if body[position...].starts(with: "--".utf8) { break }   // the closing delimiter
            position = try Self.skipLineEnd(body, from: position)
            partCount += 1
            guard partCount <= Self.maximumParts else { throw .tooManyParts }
            let (headers, contentStart) = try Self.readHeaders(body, from: position)
            guard let contentEnd = Self.find(separator, in: body, from: contentStart) else { throw .unterminated }
            let content = Array(body[contentStart..<contentEnd])
            try add(headers: headers, content: content, to: &pairs)
            position = contentEnd + 2
        }
        fields = FormFields(pairs: pairs)
    }

    private mutating func add(headers: [String: String], content: [UInt8], to pairs: inout [(String, String)]) throws(Problem) {
        let disposition = HeaderParameters(headers["content-disposition"] ?? "")
        guard disposition.type == "form-data", let name = disposition.parameters["name"], !name.isEmpty else { throw .missingFieldName }
        if let filename = disposition.parameters["filename"] {
            // An empty file input still sends a part with an empty filename.
            if !filename.isEmpty || !content.isEmpty { files[name] = UploadedFile(filename: filename, bytes: content) }
        } else {
            guard let text = String(validating: content, as: UTF8.self) else { throw .textNotUTF8 }
            pairs.append((name, text))
        }
    }

    private static func firstDelimiter(_ delimiter: [UInt8], in body: [UInt8]) -> Int? {
        if body.starts(with: delimiter) { return 0 }
        return find([UInt8(ascii: "\r"), UInt8(ascii: "\n")] + delimiter, in: body, from: 0).map { $0 + 2 }
    }

    /// After a delimiter: optional spaces or tabs (RFC 2046's transport padding), then CRLF.
    private static func skipLineEnd(_ body: [UInt8], from start: Int) throws(Problem) -> Int {
        var position = start
        while position < body.count, body[position] == UInt8(ascii: " ") || body[position] == UInt8(ascii: "\t") { position += 1 }
        guard body[position...].starts(with: "\r\n".utf8) else { throw .malformedPartHeaders }
        return position + 2
    }

    /// A part's header lines up to the blank line, with lower-cased names; the headers must end
    /// within `maximumHeaderBytes`.
    private static func readHeaders(_ body: [UInt8], from start: Int) throws(Problem) -> ([String: String], Int) {
        let limit = min(body.count, start + maximumHeaderBytes)
        if body[start..<limit].starts(with: "\r\n".utf8) { return ([:], start + 2) }
        guard let end = find(Array("\r\n\r\n".utf8), in: body, from: start, before: limit) else {
            throw body.count > limit ? .malformedPartHeaders : .unterminated
        }
        guard let text = String(validating: body[start..<end], as: UTF8.self) else { throw .textNotUTF8 }
        var headers: [String: String] = [:]
        for line in text.split(separator: "\r\n", omittingEmptySubsequences: false) {
            guard let colon = line.firstIndex(of: ":"), colon > line.startIndex else { throw .malformedPartHeaders }
            let name = line[..<colon]
            guard name.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }) else { throw .malformedPartHeaders }
            headers[name.lowercased()] = String(line[line.index(after: colon)...]).trimmingWhitespace()
        }
        return (headers, end + 4)
    }

    /// The first index of `needle` in `haystack` at or after `start` (and ending before `end`).
    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int, before end: Int? = nil) -> Int? {
        let stop = (end ?? haystack.count) - needle.count
        guard let first = needle.first, start <= stop else { return nil }
        var index = start
        while index <= stop {
            if haystack[index] == first && haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}

/// A header value with parameters, such as `form-data; name="field"; filename="logo.png"` or
/// `multipart/form-data; boundary=x`: the value before the first `;` (lower-cased) and the
/// parameters by lower-cased name, quoted values unescaped, the first of a repeated name kept.
struct HeaderParameters {
    private(set) var type = ""
    private(set) var parameters: [String: String] = [:]

    init(_ header: String) {
        var rest = Substring(header)
        type = String(rest.prefix { $0 != ";" }).trimmingWhitespace().lowercased()
        rest = rest.drop { $0 != ";" }
        while rest.first == ";" {
            rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
            let key = String(rest.prefix { $0 != "=" && $0 != ";" }).trimmingWhitespace().lowercased()
            rest = rest.drop { $0 != "=" && $0 != ";" }
            guard rest.first == "=" else { continue }
            rest = rest.dropFirst()
            var value = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                while let character = rest.first, character != "\"" {
                    rest = rest.dropFirst()
                    if character == "\\", let escaped = rest.first { value.append(escaped); rest = rest.dropFirst() } else { value.append(character) }
                }
                rest = rest.dropFirst().drop { $0 != ";" }
            } else {
                value = String(rest.prefix { $0 != ";" }).trimmingWhitespace()
                rest = rest.drop { $0 != ";" }
            }
            if !key.isEmpty && parameters[key] == nil { parameters[key] = value }
        }
    }
}
