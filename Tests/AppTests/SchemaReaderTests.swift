@testable import App
import Domain
import Foundation
import Storage
import Testing

/// The API document reads its schemas off the Swift types; these pin what it reads.
@Suite struct SchemaReaderTests {
    enum Shade: String, Codable, DocumentedEnum { case light, dark }

    struct Item: Codable, NamedSchema {
        static let schemaName = "Item"
        let label: String
    }

    struct Answer: APIAnswer, DocumentedFields {
        let id: RecordID<DeviceRecord>
        let name: String
        let count: Int
        let when: Date
        let note: String?
        @Nullable var groupID: RecordID<DeviceGroupRecord>?
        let shade: Shade
        let tags: [String]
        let items: [Item]
        let extra: [String: JSONValue]

        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, name, count, when, note, groupID, shade, tags, items, extra
        }

        static func note(on field: CodingKeys) -> JSONSchema? {
            switch field {
            case .name: JSONSchema(description: "What people call it", maxLength: 80)
            default: nil
            }
        }
    }

    func read<T: Decodable>(_ type: T.Type) throws -> (JSONSchema, [String: JSONSchema]) {
        let reader = SchemaReader()
        return (try reader.schema(of: type), reader.components)
    }

    @Test func fieldsAskedWithDecodeAreRequiredAndOptionalsAreNullable() throws {
        let (schema, _) = try read(Answer.self)
        #expect(schema.types == [.object])
        #expect(Set(schema.required ?? []) == ["id", "name", "count", "when", "groupID", "shade", "tags", "items", "extra"])
        #expect(schema.properties?["note"]?.types == [.string, .null])
        #expect(schema.properties?["groupID"]?.types == [.integer, .null])
        #expect(schema.properties?["groupID"]?.minimum == 1)
        #expect(schema.properties?["id"]?.minimum == 1)
        #expect(schema.properties?["count"]?.types == [.integer])
        #expect(schema.properties?["when"]?.format == "date-time")
        #expect(schema.properties?["shade"]?.values == [.string("light"), .string("dark")])
        #expect(schema.properties?["tags"]?.items == .string)
        #expect(schema.properties?["extra"]?.additionalProperties == .values(JSONSchema()))
    }

    @Test func namedTypesAreReferencesToOneComponent() throws {
        let (schema, components) = try read(Answer.self)
        #expect(schema.properties?["items"]?.items?.reference == "#/components/schemas/Item")
        #expect(components["Item"]?.required == ["label"])
    }

    @Test func notesJoinTheReadSchema() throws {
        let (schema, _) = try read(Answer.self)
        #expect(schema.properties?["name"] == JSONSchema(types: [.string], description: "What people call it", maxLength: 80))
    }

    @Test func nullableEncodesNullRatherThanLeavingTheFieldOut() throws {
        let answer = Answer(id: RecordID(3), name: "Kiosk", count: 1, when: Date(timeIntervalSince1970: 0), note: nil, groupID: nil,
                            shade: .dark, tags: [], items: [Item(label: "a")], extra: [:])
        let object = try #require(JSONSerialization.jsonObject(with: answer.encodedJSON()) as? [String: Any])
        #expect(object["groupID"] is NSNull)
        #expect(object["note"] == nil)
        #expect(object["when"] as? String == "1970-01-01T00:00:00Z")
        #expect(try APIAnswerCoding.decoder.decode(Answer.self, from: answer.encodedJSON()).groupID == nil)
    }

    struct NoteOnNothing: Decodable, DocumentedFields {
        let name: String
        enum CodingKeys: String, CodingKey, CaseIterable { case name, gone }
        init(from decoder: any Decoder) throws {
            name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
        }
        static func note(on field: CodingKeys) -> JSONSchema? {
            field == .gone ? JSONSchema(description: "never read") : nil
        }
    }

    @Test func aNoteOnAFieldTheTypeNeverReadsIsRefused() {
        #expect(throws: SchemaReader.Unreadable.self) { try read(NoteOnNothing.self) }
    }

    struct Picky: Decodable {
        let shade: Shade
        enum Plain: String, Decodable { case only }
        let plain: Plain
    }

    @Test func aTypeThatCannotDecodeFromPlaceholdersIsNamedInTheFailure() throws {
        do {
            _ = try read(Picky.self)
            Issue.record("read a type it cannot decode")
        } catch let error as SchemaReader.Unreadable {
            #expect(error.description.contains("plain"))
        }
    }

    @Test func requestBodiesThatRefuseOtherFieldsSaySo() throws {
        let (reference, components) = try read(GroupBody.self)
        #expect(reference.reference == "#/components/schemas/GroupInput")
        let schema = try #require(components["GroupInput"])
        #expect(schema.additionalProperties == .refused)
        #expect(schema.required == ["name"])
        #expect(schema.properties?["parentID"]?.types == [.integer, .null])
    }
}
