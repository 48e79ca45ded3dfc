// Interface strings (en), area "social". Keys are dotted ("home.title"); values may hold {placeholders}.
export default {
};
