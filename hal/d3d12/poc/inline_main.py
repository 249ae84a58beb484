# PoC: inline SPIRV-Cross's <stage>_main() into the generated entry point (vkd3d 1.6 cannot call user functions).
import re, sys
src = open(sys.argv[1]).read()
m = re.search(r'^void (\w+_main)\(\)\n\{\n(.*?)^\}\n', src, re.S | re.M)
name, body = m.group(1), m.group(2)
src = src[:m.start()] + src[m.end():]
src = src.replace('    %s();\n' % name, '    {\n' + body + '    }\n')
sys.stdout.write(src)
