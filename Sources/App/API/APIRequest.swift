import Foundation
import Hummingbird
import NIOCore

/// Reading JSON request bodies and writing JSON answers for the API.
enum APIRequest {
    static let maxBodySize = 1 << 20

    /// The body as a JSON object; anything else is a 400 with a stable code.
    static func object(_ request: Request) async throws -> [String: Any] {
        var request = request
        let buffer: ByteBuffer
        do { buffer = try await request.collectBody(upTo: maxBodySize) } catch {
            throw APIError(status: .contentTooLarge, code: "payload_too_large", message: "The request body is larger than 1 MB.")
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [String: Any] else {
            throw APIError(status: .badRequest, code: "malformed_json", message: "The body must be a JSON object.")
        }
        return object
    }

    static func string(_ object: [String: Any], _ key: String, required: Bool = false) throws -> String? {
        switch object[key] {
        case let value as String: return value
        case nil, is NSNull:
            if required { throw APIError(status: .unprocessableContent, code: "validation_failed", message: "\(key) is required.", field: key) }
            return nil
        default: throw APIError(status: .unprocessableContent, code: "validation_failed", message: "\(key) must be a string.", field: key)
        }
    }
}

extension Response {
    /// JSON from plain Foundation values, for bodies that embed payload JSON.
    static func jsonObject(_ object: Any, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:]) throws -> Response {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
