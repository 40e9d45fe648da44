import Foundation

/// Reads a JSON Schema off a `Decodable` type by decoding one value of it from nothing: each
/// field its `init(from:)` asks for becomes a property — required when asked with `decode`,
/// optional and nullable with `decodeIfPresent` — typed by what it was asked as. The
/// document describes the API's bodies and answers this way, so it cannot name a field the
/// type does not have or miss one it has.
///
/// Types that cannot be decoded from placeholders say their own schema (`SchemaReadable`);
/// one that neither decodes nor says fails loudly, naming the field, when the document is built.
final class SchemaReader {
    /// The named schemas read so far, for the document's components.
    private(set) var components: [String: JSONSchema] = [:]
    private var namesBeingRead: Set<String> = []

    struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    /// Where one value's schema is written as it is read.
    final class Slot {
        var schema = JSONSchema()
        /// Fields and items a type reads through nested containers, still being filled while
        /// the type decodes; `settle()` writes them into `schema` once it has finished.
        var nestedProperties: [(name: String, slot: Slot)] = []
        var nestedItems: Slot?

        func settle() {
            for (name, slot) in nestedProperties {
                slot.settle()
                schema.properties?[name] = slot.schema
            }
            if let nestedItems {
                nestedItems.settle()
                schema.items = nestedItems.schema
            }
            nestedProperties = []
            nestedItems = nil
        }
    }

    /// What a `SchemaReadable` type reads itself with.
    struct Context {
        let reader: SchemaReader
        let slot: Slot
        let codingPath: [any CodingKey]

        func read<T: Decodable>(_ type: T.Type) throws -> T {
            try reader.value(of: type, into: slot, at: codingPath)
        }
    }

    /// The schema of `type`: a reference when it is a `NamedSchema` (read into `components`).
    func schema<T: Decodable>(of type: T.Type) throws -> JSONSchema {
        let slot = Slot()
        _ = try value(of: type, into: slot, at: [])
        return slot.schema
    }

    func value<T: Decodable>(of type: T.Type, into slot: Slot, at codingPath: [any CodingKey]) throws -> T {
        guard let named = T.self as? any NamedSchema.Type else { return try unnamedValue(of: type, into: slot, at: codingPath) }
        let name = named.schemaName
        guard !namesBeingRead.contains(name) else {
            throw Unreadable(description: "\(name) holds itself at \(Self.path(codingPath)); a recursive schema must be written by hand")
        }
        namesBeingRead.insert(name)
        defer { namesBeingRead.remove(name) }
        let own = Slot()
        let value = try unnamedValue(of: type, into: own, at: codingPath)
        if let earlier = components[name], earlier != own.schema {
            throw Unreadable(description: "two types call their schema \(name)")
        }
        components[name] = own.schema
        slot.schema = .reference(to: name)
        return value
    }

    private func unnamedValue<T: Decodable>(of type: T.Type, into slot: Slot, at codingPath: [any CodingKey]) throws -> T {
        let value: T
        if let readable = T.self as? any SchemaReadable.Type {
            value = try readable.readSchema(Context(reader: self, slot: slot, codingPath: codingPath)) as! T
        } else if let (schema, placeholder) = Self.primitive(T.self) {
            slot.schema = schema
            value = placeholder as! T
        } else {
            do {
                value = try T(from: ShapeDecoder(reader: self, slot: slot, codingPath: codingPath))
                slot.settle()
            } catch let error as Unreadable {
                throw error
            } catch {
                throw Unreadable(description: "\(T.self) at \(Self.path(codingPath)) does not decode from placeholders (\(error)); make it SchemaReadable")
            }
        }
        if let documented = T.self as? any DocumentedFields.Type {
            try Self.annotate(&slot.schema, with: documented, at: codingPath)
        }
        if let exampled = T.self as? any DocumentedExample.Type {
            slot.schema.example = try exampled.exampleJSON()
        }
        // A body that refuses fields it does not list says so, so clients can check theirs.
        if let body = T.self as? any APIRequestBody.Type, body.refusesUnknownFields {
            slot.schema.additionalProperties = .refused
        }
        return value
    }

    private static func annotate<D: DocumentedFields>(_ schema: inout JSONSchema, with type: D.Type, at codingPath: [any CodingKey]) throws {
        for field in D.Field.allCases where D.note(on: field) != nil && schema.properties?[field.stringValue] == nil {
            throw Unreadable(description: "\(D.self) has a note on \(field.stringValue), which its decoding never reads")
        }
        D.annotate(&schema)
    }

    /// The schema and a placeholder of the types JSON has directly.
    private static func primitive(_ type: Any.Type) -> (JSONSchema, Any)? {
        switch type {
        case is String.Type: (.string, "")
        case is Bool.Type: (.boolean, false)
        case is Int.Type: (.integer, 0)
        case is Int64.Type: (.of(.integer, format: "int64"), Int64(0))
        case is Int32.Type: (.of(.integer, format: "int32"), Int32(0))
        case is Double.Type: (.number, 0.0)
        case is Float.Type: (.number, Float(0))
        case is Date.Type: (.dateTime, Date(timeIntervalSince1970: 0))
        case is URL.Type: (.of(.string, format: "uri"), URL(string: "https://example.com")!)
        default: nil
        }
    }

    static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty ? "the top" : codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
}
