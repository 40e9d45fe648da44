/// An optional field an answer always carries: `null` when there is no value, where Swift's
/// own encoding would leave the field out, so a client reads one shape whatever the value.
/// Documented as its value's schema or null, and required.
@propertyWrapper
struct Nullable<Value: Codable & Sendable>: Codable, Sendable {
    var wrappedValue: Value?

    init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension Nullable: Equatable where Value: Equatable {}

extension Nullable: SchemaReadable {
    static func readSchema(_ context: SchemaReader.Context) throws -> Nullable {
        let value = try context.read(Value.self)
        context.slot.schema = context.slot.schema.orNull
        return Nullable(wrappedValue: value)
    }
}
