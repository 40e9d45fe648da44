import Domain
import Foundation
import Testing

@Suite struct ISOTimestampTests {
    @Test func realTimesAreReadWithTheirZones() {
        #expect(ISOTimestamp.parse("1970-01-01T00:00:00Z")?.timeIntervalSince1970 == 0)
        #expect(ISOTimestamp.parse("1970-01-01T01:00:00+01:00")?.timeIntervalSince1970 == 0)
        #expect(ISOTimestamp.parse("1969-12-31T19:00:00-0500")?.timeIntervalSince1970 == 0)
        #expect(ISOTimestamp.parse("1970-01-01T02:00:00+02")?.timeIntervalSince1970 == 0)
        #expect(ISOTimestamp.parse("1970-01-01t00:00:01.5z")?.timeIntervalSince1970 == 1.5)
        #expect(ISOTimestamp.parse("2000-02-29T12:00:00Z") != nil, "2000 is a leap year")
    }

    @Test func fieldsOutOfTheirRangeAreRefusedNotRolledOver() {
        for text in ["2025-11-20T25:00:00Z", "2025-11-20T24:00:00Z", "2025-02-30T00:00:00Z", "2025-04-31T00:00:00Z",
                     "1900-02-29T00:00:00Z", "2025-11-20T10:61:00Z", "2025-11-20T10:00:60Z", "2025-00-10T10:00:00Z",
                     "2025-11-00T10:00:00Z", "2025-11-20T10:00:00+24:00", "2025-11-20T10:00:00+01:60",
                     "2025-11-20T10:00:00.Z", "2025-11-20T10:00:00.1234567890Z", "2025-11-20 10:00:00Z",
                     "2025-11-20T10:00Z", "2025-11-20T10:00:00", "+2025-11-20T10:00:00Z", "2025-11-20T10:00:00Z ", ""] {
            #expect(ISOTimestamp.parse(text) == nil, "\(text)")
        }
    }

    @Test func zonelessTimesTakeTheGivenOffsetAndDaysMustExist() {
        #expect(ISOTimestamp.parse("1970-01-01T01:00", zonelessOffsetSeconds: 3_600)?.timeIntervalSince1970 == 0)
        #expect(ISOTimestamp.parse("1970-01-01T00:00:00Z", zonelessOffsetSeconds: 3_600)?.timeIntervalSince1970 == 0)
        #expect(ISOTimestamp.parse("1970-01-01T10:61", zonelessOffsetSeconds: 0) == nil)
        #expect(ISOTimestamp.day("1970-01-02")?.timeIntervalSince1970 == 86_400)
        #expect(ISOTimestamp.day("2025-02-30") == nil)
        #expect(ISOTimestamp.day("2025-2-3") == nil)
    }
}
