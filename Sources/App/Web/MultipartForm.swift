import Foundation
import Hummingbird
import MultipartKit
import NIOCore

/// A file sent with a `multipart/form-data` form.
struct UploadedFile: Sendable {
    let filename: String
    let bytes: [UInt8]
}

/// Splits a `multipart/form-data` body into text fields and files. Nothing is trusted from
/// the parts' own content types: files are checked by their bytes where they are used.
enum MultipartForm {
    static func parse(_ body: ByteBuffer, boundary: String) throws -> (fields: FormFields, files: [String: UploadedFile]) {
        let parser = MultipartParser(boundary: boundary)
        var pairs: [(String, String)] = []
        var files: [String: UploadedFile] = [:]
        var headers: [String: String] = [:]
        var data: [UInt8] = []
        parser.onHeader = { name, value in headers[name.lowercased()] = value }
        parser.onBody = { buffer in data += buffer.readableBytesView }
        parser.onPartComplete = {
            let disposition = headers["content-disposition"] ?? ""
            if let name = parameter("name", in: disposition) {
                if let filename = parameter("filename", in: disposition) {
                    // An empty file input still sends a part with an empty filename.
                    if !filename.isEmpty || !data.isEmpty { files[name] = UploadedFile(filename: filename, bytes: data) }
                } else {
                    pairs.append((name, String(decoding: data, as: UTF8.self)))
                }
            }
            headers = [:]
            data = []
        }
        try parser.execute(body)
        return (FormFields(pairs: pairs), files)
    }

    /// `name="value"` from a Content-Disposition header.
    private static func parameter(_ key: String, in header: String) -> String? {
        for piece in header.split(separator: ";") {
            let trimmed = piece.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix(key + "=") else { continue }
            return String(trimmed.dropFirst(key.count + 1)).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return nil
    }
}
