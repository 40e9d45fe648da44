import Domain
import Foundation
import Storage

/// A type whose schema `SchemaReader` cannot read by decoding it from nothing, so the type
/// produces it (and a value to go on decoding with) itself: a wrapper that reads its wrapped
/// type, a name among a fixed few, a value whose shape depends on one of its fields.
protocol SchemaReadable: Decodable {
    static func readSchema(_ context: SchemaReader.Context) throws -> Self
}

/// A schema-readable type with a fixed schema.
protocol SchemaLeaf: SchemaReadable {
    static var schema: JSONSchema { get }
    /// Any valid value: what a decoder gets while its schema is read.
    static var placeholder: Self { get }
}

extension SchemaLeaf {
    static func readSchema(_ context: SchemaReader.Context) throws -> Self {
        context.slot.schema = schema
        return placeholder
    }
}

/// A string enum the API sends or takes: documented as the list of its raw values.
protocol DocumentedEnum: SchemaLeaf, CaseIterable, RawRepresentable where RawValue == String {}

extension DocumentedEnum {
    static var schema: JSONSchema { .names(of: Self.self) }
    static var placeholder: Self { allCases.first! }
}

/// A type that names its schema in the document's components, so operations refer to it by
/// name (`#/components/schemas/Profile`) rather than repeating it.
protocol NamedSchema: Decodable {
    static var schemaName: String { get }
}

/// What a type's fields cannot say in Swift — a description, a pattern, a range — keyed by the
/// type's own coding keys, so a note for a field the type does not have cannot compile.
/// Each note is laid over the schema read off the field's type (`JSONSchema.refined(by:)`).
protocol DocumentedFields: Decodable {
    associatedtype Field: CodingKey & CaseIterable
    static func note(on field: Field) -> JSONSchema?
    /// Said of the whole object.
    static var schemaDescription: String? { get }
    /// Rules across fields, which no one field's note can say (`allOf`).
    static var rulesAcrossFields: [JSONSchema] { get }
}

extension DocumentedFields {
    static var schemaDescription: String? { nil }
    static var rulesAcrossFields: [JSONSchema] { [] }

    static func annotate(_ schema: inout JSONSchema) {
        if let schemaDescription { schema.description = schemaDescription }
        if !rulesAcrossFields.isEmpty { schema.allOf = rulesAcrossFields }
        for field in Field.allCases {
            guard let note = note(on: field), let read = schema.properties?[field.stringValue] else { continue }
            schema.properties?[field.stringValue] = read.refined(by: note)
        }
    }
}

/// A type the document shows an example of: a value of the type, encoded as the API encodes
/// it, so the example has the type's fields and no others.
protocol DocumentedExample: Encodable {
    static var example: Self { get }
}

extension DocumentedExample {
    static func exampleJSON() throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: APIAnswerCoding.encoder.encode(example))
    }
}

/// Ids are positive integers, in paths as in bodies.
extension RecordID: SchemaLeaf {
    static var schema: JSONSchema {
        var schema = JSONSchema.of(.integer, format: "int64")
        schema.minimum = 1
        return schema
    }

    static var placeholder: RecordID { RecordID(1) }
}

/// Any JSON at all: parts of a body whose shape another field decides.
extension JSONValue: SchemaLeaf {
    static var schema: JSONSchema { JSONSchema() }
    static var placeholder: JSONValue { .null }
}

/// A map from names to values: an object whose every field has the value's schema.
extension Dictionary: SchemaReadable where Key == String, Value: Decodable {
    static func readSchema(_ context: SchemaReader.Context) throws -> [String: Value] {
        let values = SchemaReader.Slot()
        _ = try context.reader.value(of: Value.self, into: values, at: context.codingPath)
        var schema = JSONSchema.of(.object)
        schema.additionalProperties = .values(values.schema)
        context.slot.schema = schema
        return [:]
    }
}
