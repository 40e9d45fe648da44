import Domain

/// A JSON Schema (the 2020-12 dialect OpenAPI 3.1 uses), as a value: the API document is built
/// from these, most of them read off the Swift types the API decodes and answers
/// (`SchemaReader`), so the document cannot describe a field the server does not have.
///
/// Only the keywords the console's document uses are here. Every one is optional: a schema
/// that sets none accepts anything.
struct JSONSchema: Encodable, Equatable, Sendable {
    enum Kind: String, Encodable, Sendable {
        case string, integer, number, boolean, object, array, null
    }

    var types: [Kind] = []
    var format: String?
    var description: String?
    var pattern: String?
    var minLength: Int?
    var maxLength: Int?
    var minimum: Int?
    var maximum: Int?
    var minItems: Int?
    var maxItems: Int?
    var maxProperties: Int?
    var values: [JSONValue]?
    var defaultValue: JSONValue?
    var example: JSONValue?
    var properties: [String: JSONSchema]?
    var required: [String]?
    /// `false` to refuse fields `properties` does not list; a schema for the values of a map.
    var additionalProperties: Additional?
    var reference: String?
    var anyOf: [JSONSchema]?
    var oneOf: [JSONSchema]?
    /// Rules the value must meet as well, each one schema: how a rule across fields (this
    /// field only with that value of another) is said, as `if`/`then` pairs.
    var allOf: [JSONSchema]?
    /// Boxed: a struct cannot hold itself directly.
    private var itemsBox: [JSONSchema] = []
    private var propertyNamesBox: [JSONSchema] = []
    private var ifBox: [JSONSchema] = []
    private var thenBox: [JSONSchema] = []
    private var notBox: [JSONSchema] = []

    indirect enum Additional: Encodable, Equatable, Sendable {
        case refused
        case values(JSONSchema)

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .refused: try container.encode(false)
            case .values(let schema): try container.encode(schema)
            }
        }
    }

    /// Any keywords, each left out by default.
    init(types: [Kind] = [], format: String? = nil, description: String? = nil, pattern: String? = nil,
         minLength: Int? = nil, maxLength: Int? = nil, minimum: Int? = nil, maximum: Int? = nil,
         maxItems: Int? = nil, maxProperties: Int? = nil, values: [JSONValue]? = nil, defaultValue: JSONValue? = nil,
         example: JSONValue? = nil, items: JSONSchema? = nil, propertyNames: JSONSchema? = nil, additionalProperties: Additional? = nil) {
        self.types = types
        self.format = format
        self.description = description
        self.pattern = pattern
        self.minLength = minLength
        self.maxLength = maxLength
        self.minimum = minimum
        self.maximum = maximum
        self.maxItems = maxItems
        self.maxProperties = maxProperties
        self.values = values
        self.defaultValue = defaultValue
        self.example = example
        self.additionalProperties = additionalProperties
        self.items = items
        self.propertyNames = propertyNames
    }

    var items: JSONSchema? {
        get { itemsBox.first }
        set { itemsBox = newValue.map { [$0] } ?? [] }
    }

    var propertyNames: JSONSchema? {
        get { propertyNamesBox.first }
        set { propertyNamesBox = newValue.map { [$0] } ?? [] }
    }

    /// When the value matches `condition`, it must match `then` too.
    var condition: JSONSchema? {
        get { ifBox.first }
        set { ifBox = newValue.map { [$0] } ?? [] }
    }

    var then: JSONSchema? {
        get { thenBox.first }
        set { thenBox = newValue.map { [$0] } ?? [] }
    }

    /// The value must not match this.
    var not: JSONSchema? {
        get { notBox.first }
        set { notBox = newValue.map { [$0] } ?? [] }
    }

    static func of(_ kind: Kind, format: String? = nil, description: String? = nil) -> JSONSchema {
        var schema = JSONSchema()
        schema.types = [kind]
        schema.format = format
        schema.description = description
        return schema
    }

    static var string: JSONSchema { .of(.string) }
    static var integer: JSONSchema { .of(.integer) }
    static var number: JSONSchema { .of(.number) }
    static var boolean: JSONSchema { .of(.boolean) }
    /// Every time the console reads or writes (`ISOTimestamp.range`).
    static var dateTime: JSONSchema { .of(.string, format: "date-time", description: ISOTimestamp.documentedRange) }

    static func array(of items: JSONSchema) -> JSONSchema {
        var schema = JSONSchema.of(.array)
        schema.items = items
        return schema
    }

    static func reference(to name: String) -> JSONSchema {
        var schema = JSONSchema()
        schema.reference = "#/components/schemas/\(name)"
        return schema
    }

    /// One of the listed strings.
    static func oneOfStrings(_ values: [String]) -> JSONSchema {
        var schema = JSONSchema.string
        schema.values = values.map(JSONValue.string)
        return schema
    }

    /// The raw values of a string enum.
    static func names<Names: CaseIterable & RawRepresentable>(of type: Names.Type) -> JSONSchema where Names.RawValue == String {
        oneOfStrings(Names.allCases.map(\.rawValue))
    }

    /// The same schema that also accepts null.
    var orNull: JSONSchema {
        var copy = self
        if !copy.types.isEmpty, !copy.types.contains(.null) { copy.types.append(.null) }
        if let values = copy.values, !values.contains(.null) { copy.values = values + [.null] }
        if copy.reference != nil { return JSONSchema(anyOf: [copy, .of(.null)]) }
        return copy
    }

    /// `self` with every keyword `other` sets put over it: how a type's notes (a description,
    /// a pattern, a range) join what was read off its Swift type.
    func refined(by other: JSONSchema) -> JSONSchema {
        var merged = self
        // A note says what a value must be; whether it may be null is the Swift type's to say.
        if !other.types.isEmpty { merged.types = other.types + (types.contains(.null) && !other.types.contains(.null) ? [.null] : []) }
        merged.format = other.format ?? format
        merged.description = other.description ?? description
        merged.pattern = other.pattern ?? pattern
        merged.minLength = other.minLength ?? minLength
        merged.maxLength = other.maxLength ?? maxLength
        merged.minimum = other.minimum ?? minimum
        merged.maximum = other.maximum ?? maximum
        merged.minItems = other.minItems ?? minItems
        merged.maxItems = other.maxItems ?? maxItems
        merged.maxProperties = other.maxProperties ?? maxProperties
        merged.values = other.values.map { types.contains(.null) && !$0.contains(.null) ? $0 + [.null] : $0 } ?? values
        merged.defaultValue = other.defaultValue ?? defaultValue
        merged.example = other.example ?? example
        merged.properties = other.properties ?? properties
        merged.required = other.required ?? required
        merged.additionalProperties = other.additionalProperties ?? additionalProperties
        merged.reference = other.reference ?? reference
        merged.anyOf = other.anyOf ?? anyOf
        merged.oneOf = other.oneOf ?? oneOf
        merged.allOf = other.allOf ?? allOf
        merged.condition = other.condition ?? condition
        merged.then = other.then ?? then
        merged.not = other.not ?? not
        merged.items = other.items.map { items?.refined(by: $0) ?? $0 } ?? items
        merged.propertyNames = other.propertyNames ?? propertyNames
        return merged
    }

    private enum CodingKeys: String, CodingKey {
        case type, format, description, pattern, minLength, maxLength, minimum, maximum, minItems, maxItems, maxProperties
        case values = "enum", defaultValue = "default", example, properties, required, additionalProperties
        case reference = "$ref", anyOf, oneOf, allOf, condition = "if", then, not, items, propertyNames
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch types.count {
        case 0: break
        case 1: try container.encode(types[0], forKey: .type)
        default: try container.encode(types, forKey: .type)
        }
        try container.encodeIfPresent(format, forKey: .format)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encodeIfPresent(pattern, forKey: .pattern)
        try container.encodeIfPresent(minLength, forKey: .minLength)
        try container.encodeIfPresent(maxLength, forKey: .maxLength)
        try container.encodeIfPresent(minimum, forKey: .minimum)
        try container.encodeIfPresent(maximum, forKey: .maximum)
        try container.encodeIfPresent(minItems, forKey: .minItems)
        try container.encodeIfPresent(maxItems, forKey: .maxItems)
        try container.encodeIfPresent(maxProperties, forKey: .maxProperties)
        try container.encodeIfPresent(values, forKey: .values)
        try container.encodeIfPresent(defaultValue, forKey: .defaultValue)
        try container.encodeIfPresent(example, forKey: .example)
        try container.encodeIfPresent(properties, forKey: .properties)
        try container.encodeIfPresent(required, forKey: .required)
        try container.encodeIfPresent(additionalProperties, forKey: .additionalProperties)
        try container.encodeIfPresent(reference, forKey: .reference)
        try container.encodeIfPresent(anyOf, forKey: .anyOf)
        try container.encodeIfPresent(oneOf, forKey: .oneOf)
        try container.encodeIfPresent(allOf, forKey: .allOf)
        try container.encodeIfPresent(condition, forKey: .condition)
        try container.encodeIfPresent(then, forKey: .then)
        try container.encodeIfPresent(not, forKey: .not)
        try container.encodeIfPresent(items, forKey: .items)
        try container.encodeIfPresent(propertyNames, forKey: .propertyNames)
    }
}

extension JSONSchema {
    init(anyOf schemas: [JSONSchema]) {
        self.init()
        anyOf = schemas
    }

    init(not schema: JSONSchema) {
        self.init()
        not = schema
    }
}
