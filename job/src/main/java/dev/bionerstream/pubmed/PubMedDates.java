package dev.bionerstream.pubmed;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * A PubMed date element (PubDate, DateRevised) as ISO-8601 of the precision it has: {@code yyyy},
 * {@code yyyy-MM} or {@code yyyy-MM-dd}. Months come as numbers or English abbreviations; a
 * MedlineDate ("1998 Dec-1999 Jan", "2000 Spring") gives its first year, and month when it names one.
 */
final class PubMedDates {
    private static final List<String> MONTHS =
            List.of("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec");
    private static final Pattern MEDLINE_DATE = Pattern.compile("^\\s*(\\d{4})(?:\\s+([A-Za-z]{3}))?");

    private PubMedDates() {}

    /** Reads the date element the reader is on; null when it holds no year. */
    static String read(XMLStreamReader xml) throws XMLStreamException {
        String year = null;
        String month = null;
        String day = null;
        String medline = null;
        int depth = 1;
        while (depth > 0) {
            int event = xml.next();
            if (event == XMLStreamConstants.END_ELEMENT) {
                depth--;
            } else if (event == XMLStreamConstants.START_ELEMENT) {
                String name = xml.getLocalName();
                String text = xml.getElementText().trim();
                switch (name) {
                    case "Year" -> year = text;
                    case "Month" -> month = text;
                    case "Day" -> day = text;
                    case "MedlineDate" -> medline = text;
                    default -> {}
                }
            }
        }
        if (year == null && medline != null) {
            Matcher m = MEDLINE_DATE.matcher(medline);
            if (m.find()) {
                year = m.group(1);
                month = m.group(2);
            }
        }
        return iso(year, month, day);
    }

    static String iso(String year, String month, String day) {
        if (year == null || !year.matches("\\d{4}")) {
            return null;
        }
        int m = month(month);
        if (m == 0) {
            return year;
        }
        String ym = year + "-" + (m < 10 ? "0" : "") + m;
        if (day == null || !day.matches("\\d{1,2}") || Integer.parseInt(day) < 1 || Integer.parseInt(day) > 31) {
            return ym;
        }
        return ym + "-" + (day.length() == 1 ? "0" : "") + day;
    }

    private static int month(String month) {
        if (month == null) {
            return 0;
        }
        if (month.matches("\\d{1,2}")) {
            int m = Integer.parseInt(month);
            return m >= 1 && m <= 12 ? m : 0;
        }
        String abbreviation = month.length() >= 3 ? month.substring(0, 3).toLowerCase(Locale.ROOT) : "";
        return MONTHS.indexOf(abbreviation) + 1;
    }
}
