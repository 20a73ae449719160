/* bench/validate's floor: libyaml alone parsing a file to events (no tree, no checks), the least
 * any YAML-reading validator has to spend. Built by bench/validate against Debian's libyaml-dev:
 *
 *   cc -O2 -o yaml-events bench/yaml-floor/yaml-events.c -lyaml
 *   yaml-events FILE     (prints the number of events; exit 1 on a syntax error)
 *
 * The file is read whole into memory first, as flow does, and parsed from the string. */
#include <stdio.h>
#include <stdlib.h>
#include <yaml.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: yaml-events FILE\n");
        return 2;
    }
    FILE *file = fopen(argv[1], "rb");
    if (!file) {
        perror(argv[1]);
        return 2;
    }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *bytes = malloc(size > 0 ? (size_t)size : 1);
    if (!bytes || fread(bytes, 1, (size_t)size, file) != (size_t)size) {
        perror(argv[1]);
        return 2;
    }
    fclose(file);

    yaml_parser_t parser;
    yaml_event_t event;
    long events = 0;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, bytes, (size_t)size);
    for (;;) {
        if (!yaml_parser_parse(&parser, &event)) {
            fprintf(stderr, "%s: %s at line %lu\n", argv[1], parser.problem ? parser.problem : "error",
                    (unsigned long)parser.problem_mark.line + 1);
            return 1;
        }
        events++;
        int done = event.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&event);
        if (done) break;
    }
    yaml_parser_delete(&parser);
    free(bytes);
    printf("%ld\n", events);
    return 0;
}
