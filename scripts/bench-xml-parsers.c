// The parser choice for Discogs' data dump (scripts/bench-catalogue.sh --parsers): expat's
// push parser against libxml2's streaming reader (xmlTextReader), each reading an
// uncompressed releases dump from memory and visiting every element, attribute and text
// node as the catalogue's reader does (names compared, text of the wanted elements copied).
// Timed in CPU seconds of the process: on a machine shared with other work, wall-clock time
// measures the neighbours as much as the parser.
// Build: cc -O2 scripts/bench-xml-parsers.c -lexpat $(pkg-config --cflags --libs libxml-2.0)
#include <expat.h>
#include <libxml/xmlreader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static char *data;
static size_t size;
static long releases, attributes;
static size_t copied;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void start(void *user, const XML_Char *name, const XML_Char **attrs) {
    (void)user;
    if (strcmp(name, "release") == 0) releases++;
    for (int i = 0; attrs[i]; i += 2) {
        if (strcmp(attrs[i], "value") == 0 || strcmp(attrs[i], "catno") == 0) copied += strlen(attrs[i + 1]);
        attributes++;
    }
}
static void end(void *user, const XML_Char *name) { (void)user; (void)name; }
static void text(void *user, const XML_Char *s, int len) { (void)user; (void)s; copied += (size_t)len; }

static double run_expat(void) {
    double t = now();
    XML_Parser p = XML_ParserCreate("UTF-8");
    XML_SetElementHandler(p, start, end);
    XML_SetCharacterDataHandler(p, text);
    size_t chunk = 1 << 20;
    for (size_t off = 0; off < size; off += chunk) {
        size_t n = size - off < chunk ? size - off : chunk;
        if (XML_Parse(p, data + off, (int)n, off + n >= size) == XML_STATUS_ERROR) {
            fprintf(stderr, "expat: %s\n", XML_ErrorString(XML_GetErrorCode(p)));
            break;
        }
    }
    XML_ParserFree(p);
    return now() - t;
}

static double run_libxml2(void) {
    double t = now();
    xmlTextReaderPtr r = xmlReaderForMemory(data, (int)size, NULL, "UTF-8", XML_PARSE_NONET | XML_PARSE_HUGE | XML_PARSE_RECOVER);
    while (xmlTextReaderRead(r) == 1) {
        int type = xmlTextReaderNodeType(r);
        if (type == XML_READER_TYPE_ELEMENT) {
            const xmlChar *name = xmlTextReaderConstLocalName(r);
            if (xmlStrEqual(name, BAD_CAST "release")) releases++;
            while (xmlTextReaderMoveToNextAttribute(r) == 1) {
                const xmlChar *a = xmlTextReaderConstLocalName(r);
                if (xmlStrEqual(a, BAD_CAST "value") || xmlStrEqual(a, BAD_CAST "catno")) copied += (size_t)xmlStrlen(xmlTextReaderConstValue(r));
                attributes++;
            }
        } else if (type == XML_READER_TYPE_TEXT) {
            copied += (size_t)xmlStrlen(xmlTextReaderConstValue(r));
        }
    }
    xmlFreeTextReader(r);
    return now() - t;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s DUMP.xml [RUNS]\n", argv[0]); return 2; }
    int runs = argc > 2 ? atoi(argv[2]) : 3;
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 1; }
    fseek(f, 0, SEEK_END);
    size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    data = malloc(size);
    if (fread(data, 1, size, f) != size) { perror("read"); return 1; }
    fclose(f);
    double e[16], x[16];
    if (runs > 16) runs = 16;
    for (int i = 0; i < runs; i++) {
        releases = 0;
        e[i] = run_expat();
        long expatReleases = releases;
        releases = 0;
        x[i] = run_libxml2();
        if (i == 0) fprintf(stderr, "releases: expat %ld, libxml2 %ld\n", expatReleases, releases);
    }
    qsort(e, runs, sizeof(double), compare);
    qsort(x, runs, sizeof(double), compare);
    double me = e[runs / 2], mx = x[runs / 2];
    printf("expat (push parser):      %.2f CPU s  %.0f MB/s  %.0f releases/s\n", me, size / me / 1e6, releases / me);
    printf("libxml2 (xmlTextReader):  %.2f CPU s  %.0f MB/s  %.0f releases/s  (%.2fx expat)\n", mx, size / mx / 1e6, releases / mx, mx / me);
    return 0;
}
