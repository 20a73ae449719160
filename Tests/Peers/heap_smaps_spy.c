// Loaded with LD_PRELOAD by EndToEndTests' HugePageHeapTests: when the process exits, copies the
// lines of /proc/self/smaps that describe the [heap] mappings (their header, AnonHugePages and
// VmFlags) to the file $HEAP_SMAPS_SPY names, so the test sees what flow's heap was made of.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((destructor)) static void copy_heap_smaps(void) {
    const char *path = getenv("HEAP_SMAPS_SPY");
    if (path == NULL) return;
    FILE *smaps = fopen("/proc/self/smaps", "r");
    FILE *record = fopen(path, "w");
    if (smaps == NULL || record == NULL) return;
    char line[1024];
    int inHeap = 0;
    while (fgets(line, sizeof line, smaps) != NULL) {
        if (strstr(line, "[heap]") != NULL) {
            inHeap = 1;
            fputs(line, record);
        } else if (inHeap && (strncmp(line, "AnonHugePages:", 14) == 0 || strncmp(line, "VmFlags:", 8) == 0)) {
            fputs(line, record);
            if (line[0] == 'V') inHeap = 0;
        }
    }
    fclose(record);
    fclose(smaps);
}
