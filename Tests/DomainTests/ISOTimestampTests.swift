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

    @Test func timesAreAcceptedFromYear1ToYear9999InUTCAndNoFurther() {
        #expect(ISOTimestamp.parse("0001-01-01T00:00:00Z")?.timeIntervalSince1970 == -62_135_596_800, ".NET's DateTime.MinValue")
        #expect(ISOTimestamp.parse("9999-12-31T23:59:59.999Z")?.timeIntervalSince1970 == 253_402_300_799.999)
        #expect(ISOTimestamp.parse("1899-12-31T23:59:59Z") != nil && ISOTimestamp.parse("1583-10-15T00:00:00Z") != nil)
        for text in ["0000-12-31T23:59:59Z", "0000-01-01T00:00:00Z", "0001-01-01T00:00:00+00:01",
                     "9999-12-31T23:30:00-01:00", "9999-12-31T23:59:59.9996Z"] {
            #expect(ISOTimestamp.parse(text) == nil, "\(text) is outside the range in UTC")
        }
        #expect(ISOTimestamp.day("0000-01-01") == nil && ISOTimestamp.day("0001-01-01")?.timeIntervalSince1970 == -62_135_596_800)
        #expect(ISOTimestamp.range.contains(-62_135_596_800) && !ISOTimestamp.range.contains(253_402_300_800))
    }

    @Test func timesAreKeptToTheMillisecond() {
        #expect(ISOTimestamp.parse("2026-11-23T09:30:00.1234Z")?.timeIntervalSince1970 == 1_795_426_200.123)
        #expect(ISOTimestamp.parse("2026-11-23T09:30:00.9996Z")?.timeIntervalSince1970 == 1_795_426_201)
        #expect(ISOTimestamp.parse("0001-01-01T00:00:00.123456789Z")?.timeIntervalSince1970 == -62_135_596_800 + 0.123)
    }
}
