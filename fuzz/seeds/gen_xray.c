/* Writes the seed corpus fuzz/corpus/xray/ (run from the repository root):
 *   cc -Itests fuzz/seeds/gen_xray.c tests/support/xray_writer.c -o /tmp/gen && /tmp/gen
 * Each seed: one option byte, an XRay trace, one chunk-seed byte (see fuzz/fuzz_xray.c). */
#include <stdio.h>
#include <string.h>
#include "support/xray_writer.h"
static void out(const char *name, xw_t *w, unsigned char opts, unsigned char seed){
  char p[256]; snprintf(p,sizeof p,"fuzz/corpus/xray/%s",name); FILE *f=fopen(p,"wb");
  fputc(opts,f); fwrite(w->buf,1,w->len,f); fputc(seed,f); fclose(f); xw_free(w);}
int main(void){ xw_t w;
 for(int big=0;big<2;big++) for(unsigned v=1; v<=5; v++){ xw_init(&w,big); xw_header(&w,(uint16_t)v,1,3,2000000000u, v==1?256:0);
   size_t m=0; if(v>=2) m=xw_extents(&w,0); size_t st=w.len; xw_new_buffer(&w,5); xw_walltime(&w,1,2); if(v>=3) xw_pid(&w,9);
   xw_new_cpu(&w,1,100); xw_func(&w,0,1,1); xw_func(&w,3,2,2); xw_arg(&w,7); xw_arg(&w,8); xw_tsc_wrap(&w,1000); xw_func(&w,1,2,3);
   xw_custom(&w,4, v>=5?2:500, 1, "abcd",4); if(v>=4) xw_typed(&w,3, v>=5?1:600, 7, "xyz",3); xw_new_cpu(&w,2,2000); xw_func(&w,2,1,1);
   if(v==1){ xw_eob(&w); while(w.len<st+256) xw_u8(&w,0);} else xw_end_extents(&w,m);
   char n[64]; snprintf(n,sizeof n,"fdr-v%u-%s",v,big?"be":"le"); out(n,&w,(unsigned char)(big?0x13:0x00),(unsigned char)(40+v)); }
 for(unsigned v=1; v<=3; v++){ xw_init(&w,v==2); xw_header(&w,(uint16_t)v,0,0,1000000000u,0);
   xw_basic_func(&w,1,3,5,100,7,8); xw_basic_arg(&w,5,7,8,99); xw_basic_func(&w,1,1,5,200,7,8);
   char n[64]; snprintf(n,sizeof n,"basic-v%u",v); out(n,&w,0x10,(unsigned char)(60+v)); }
 xw_init(&w,false); xw_header(&w,5,1,0,1,0); size_t m=xw_extents(&w,0); xw_new_buffer(&w,1); xw_walltime(&w,0,0); xw_new_cpu(&w,0,0);
 unsigned char big[200]; memset(big,7,sizeof big); xw_custom(&w,200,1,0,big,200); xw_func(&w,6,1,1); xw_end_extents(&w,m);
 xw_extents(&w,16); xw_new_buffer(&w,2); out("lenient-fragments",&w,0x03,77);
 return 0; }
