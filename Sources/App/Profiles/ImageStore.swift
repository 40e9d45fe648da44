import Domain
import Foundation
import Hummingbird
import NIOCore
import Storage

/// An uploaded image, checked by its bytes, kept in SQLite beside the payloads that use it.
struct ImageRecord: Record {
    static let tableName = "images"

    var id: RecordID<ImageRecord> = .unsaved
    var key: String
    var mediaType: String
    var width: Int
    var height: Int
    var byteCount: Int
    var bytes: Data
    var uploadedBy: String
    var createdAt: Date

    var reference: ImageReference {
        ImageReference(id: key, mediaType: mediaType, width: width, height: height, byteCount: byteCount)
    }
}

struct ImageStore: Sendable {
    let database: Database
    let now: @Sendable () -> Date

    /// Stores an upload when it is a PNG or JPEG of at most 1 MB; otherwise says why not.
    func store(_ file: UploadedFile, by actor: Actor) async throws -> Result<ImageReference, FieldProblem> {
        guard file.bytes.count <= Branding.maximumImageBytes else {
            return .failure(FieldProblem(message: "\(file.filename) is \(file.bytes.count / 1024) KB; images may be at most 1 MB."))
        }
        guard let image = ImageInspector.inspect(file.bytes) else {
            return .failure(FieldProblem(message: "\(file.filename) is not a PNG or JPEG image."))
        }
        let record = try await database.write { connection in
            try connection.insert(ImageRecord(
                key: UUID().uuidString.lowercased(), mediaType: image.mediaType, width: image.width, height: image.height,
                byteCount: file.bytes.count, bytes: Data(file.bytes), uploadedBy: actor.email, createdAt: now()))
        }
        return .success(record.reference)
    }

    func references(for keys: [String]) async throws -> [String: ImageReference] {
        guard !keys.isEmpty else { return [:] }
        let records = try await database.read { connection in
            try connection.fetch(ImageRecord.self, ProfileQueries.imagesWithoutBytes(keys: keys, dialect: connection.dialect))
        }
        return Dictionary(uniqueKeysWithValues: records.map { ($0.key, $0.reference) })
    }

    /// The stored image with this key, bytes included.
    func image(key: String) async throws -> ImageRecord? {
        try await database.read { try $0.fetchOne(ImageRecord.query().filter("key", .equal, key)) }
    }

    /// Deletes the images no profile version refers to that were uploaded before `cutoff`;
    /// how many went and their bytes. Younger ones stay: a form re-rendered with an upload
    /// refers to it until it is saved or left.
    func deleteUnreferenced(uploadedBefore cutoff: Date) async throws -> (images: Int, bytes: Int) {
        let sizes = try await database.write { connection in
            try connection.rows(ProfileQueries.deleteUnreferencedImages(uploadedBefore: cutoff, dialect: connection.dialect))
                .map { try $0.first(as: Int.self) }
        }
        return (sizes.count, sizes.reduce(0, +))
    }

    struct FieldProblem: Error {
        let message: String
    }
}

/// Serves stored images to signed-in users, with their checked type.
struct ImagesController {
    let images: ImageStore

    func register(on routes: SecuredRoutes) {
        routes.on(Site.image) { key, _, _ in
            guard let image = try await images.image(key: key) else {
                throw HTTPError(.notFound)
            }
            return Response(status: .ok,
                            headers: [.contentType: image.mediaType, .cacheControl: "private, max-age=86400, immutable"],
                            body: .init(byteBuffer: ByteBuffer(bytes: image.bytes)))
        }
    }
}
